import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchProducts } from '../src/search.ts';

const catalog = [
  { sku: 'L-1', name: 'Desk lamp' },
  { sku: 'C-1', name: 'Office chair' },
  { sku: 'L-2', name: 'Floor LAMP' },
];

test('search matches names case-insensitively and sorts by name', () => {
  const page = searchProducts(catalog, '  lamp ');
  assert.deepEqual(
    page.items.map((p) => p.sku),
    ['L-1', 'L-2'],
  );
});

test('search passes paging options through', () => {
  const page = searchProducts(catalog, '', { page: 2, pageSize: 2 });
  assert.deepEqual(
    page.items.map((p) => p.sku),
    ['C-1'],
  );
  assert.equal(page.hasPreviousPage, true);
});
