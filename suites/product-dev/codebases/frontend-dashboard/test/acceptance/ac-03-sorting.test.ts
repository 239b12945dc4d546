import assert from 'node:assert/strict';
import { test } from 'node:test';
import { click, render, rowIds } from './support.ts';

const ariaSort = (root: Element) =>
  Object.fromEntries(
    [...root.querySelectorAll('thead th')].map((th) => [
      th.getAttribute('data-sort-key'),
      th.getAttribute('aria-sort'),
    ]),
  );

test('clicking a header sorts ascending, clicking again flips the direction', () => {
  const { root } = render();
  click(root, 'customer');
  assert.deepEqual(rowIds(root), ['o2', 'o1', 'o3', 'o4'], 'case-insensitive: Alice, bob, Carol, dave');
  assert.deepEqual(ariaSort(root), {
    customer: 'ascending',
    total: 'none',
    status: 'none',
    createdAt: 'none',
  });
  click(root, 'customer');
  assert.deepEqual(rowIds(root), ['o4', 'o3', 'o1', 'o2']);
  assert.equal(ariaSort(root).customer, 'descending');

  click(root, 'total');
  assert.deepEqual(rowIds(root), ['o3', 'o1', 'o4', 'o2'], 'totals compare as numbers');
  assert.deepEqual(ariaSort(root), {
    customer: 'none',
    total: 'ascending',
    status: 'none',
    createdAt: 'none',
  });

  click(root, 'createdAt');
  assert.deepEqual(rowIds(root), ['o3', 'o1', 'o4', 'o2']);
  click(root, 'createdAt');
  assert.deepEqual(rowIds(root), ['o2', 'o4', 'o1', 'o3']);
  assert.equal(root.querySelectorAll('tbody tr').length, 4, 'sorting never duplicates rows');
});
