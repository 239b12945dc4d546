import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render } from './support.ts';

const card = (root: Element, key: string) => ({
  label: root.querySelector(`.cards [data-card="${key}"] h2`)?.textContent,
  value: root.querySelector(`.cards [data-card="${key}"] .value`)?.textContent,
});

test('summary cards show revenue without refunds, the order count and open orders', () => {
  const { root } = render();
  assert.equal(root.querySelector('h1')?.textContent, 'Orders');
  assert.equal(root.querySelector('p')?.textContent === 'old', false, 'previous content is replaced');
  assert.equal(root.querySelectorAll('.cards article.card').length, 3);
  assert.deepEqual(card(root, 'revenue'), { label: 'Revenue', value: '$1,479.50' });
  assert.deepEqual(card(root, 'orders'), { label: 'Orders', value: '4' });
  assert.deepEqual(card(root, 'open'), { label: 'Open orders', value: '2' });
});
