import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render, rowIds } from './support.ts';

test('the table lists every order newest first with formatted cells', () => {
  const { root } = render();
  const headers = [...root.querySelectorAll('table.orders thead th')];
  assert.deepEqual(
    headers.map((th) => [
      th.getAttribute('data-sort-key'),
      th.querySelector('button[type="button"]')?.textContent,
    ]),
    [
      ['customer', 'Customer'],
      ['total', 'Total'],
      ['status', 'Status'],
      ['createdAt', 'Created'],
    ],
  );
  assert.deepEqual(rowIds(root), ['o2', 'o4', 'o1', 'o3']);
  const firstRow = [...root.querySelectorAll('tbody tr:first-child td')].map((td) => td.textContent);
  assert.deepEqual(firstRow, ['Alice', '$1,234.50', 'open', '2026-03-05']);
  assert.equal(root.querySelector('th[data-sort-key="createdAt"]')?.getAttribute('aria-sort'), 'descending');
  assert.equal(root.querySelector('th[data-sort-key="customer"]')?.getAttribute('aria-sort'), 'none');
});
