import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render } from './support.ts';

test('without orders the dashboard shows an empty state and zeroed cards', () => {
  const { root } = render({ orders: [] });
  assert.equal(root.querySelector('table'), null);
  assert.equal(root.querySelector('p.empty-state')?.textContent, 'No orders yet');
  const values = [...root.querySelectorAll('.cards .card .value')].map((p) => p.textContent);
  assert.deepEqual(values, ['$0.00', '0', '0']);
});
