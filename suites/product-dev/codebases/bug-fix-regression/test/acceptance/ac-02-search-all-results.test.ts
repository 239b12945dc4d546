import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchProducts } from '../../src/search.ts';

const catalog = [
  ...Array.from({ length: 25 }, (_, i) => ({ sku: `W-${i}`, name: `Widget ${String(i).padStart(2, '0')}` })),
  { sku: 'G-1', name: 'Gadget' },
];

test('following hasNextPage through search results reaches every match', () => {
  const seen: string[] = [];
  let page = 1;
  for (;;) {
    const result = searchProducts(catalog, 'widget', { page, pageSize: 10 });
    seen.push(...result.items.map((p) => p.sku));
    assert.equal(result.totalPages, 3);
    if (!result.hasNextPage) break;
    page += 1;
    assert.ok(page <= 10, 'pager never ends');
  }
  assert.equal(seen.length, 25);
  assert.equal(new Set(seen).size, 25);
});
