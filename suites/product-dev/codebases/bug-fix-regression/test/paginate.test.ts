import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paginate } from '../src/paginate.ts';

const numbers = Array.from({ length: 20 }, (_, i) => i + 1);

test('the first page holds the first pageSize items', () => {
  const page = paginate(numbers, 1, 10);
  assert.deepEqual(page.items, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.equal(page.totalItems, 20);
  assert.equal(page.totalPages, 2);
  assert.equal(page.hasNextPage, true);
  assert.equal(page.hasPreviousPage, false);
});

test('the last full page has no next page', () => {
  const page = paginate(numbers, 2, 10);
  assert.deepEqual(page.items, [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  assert.equal(page.hasNextPage, false);
  assert.equal(page.hasPreviousPage, true);
});

test('pages and page sizes below 1 or fractional are rejected', () => {
  assert.throws(() => paginate(numbers, 0, 10), RangeError);
  assert.throws(() => paginate(numbers, 1.5, 10), RangeError);
  assert.throws(() => paginate(numbers, 1, 0), RangeError);
});
