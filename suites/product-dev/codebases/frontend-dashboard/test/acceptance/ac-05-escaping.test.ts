import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render } from './support.ts';

test('user text is rendered as text, never as markup', () => {
  const customer = '<img src=x onerror="alert(1)">Mallory & <b>co</b>';
  const { root } = render({
    title: '<script>steal()</script>Sales',
    orders: [{ id: 'x1', customer, totalCents: 100, status: 'open', createdAt: '2026-03-01T00:00:00Z' }],
  });
  assert.equal(root.querySelector('img'), null);
  assert.equal(root.querySelector('script'), null);
  assert.equal(root.querySelector('b'), null);
  assert.equal(root.querySelector('h1')?.textContent, '<script>steal()</script>Sales');
  assert.equal(root.querySelector('tbody td')?.textContent, customer);
  assert.match(root.innerHTML, /&lt;img src=x/);
});
