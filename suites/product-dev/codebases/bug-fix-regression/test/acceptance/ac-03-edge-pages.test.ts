import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paginate } from '../../src/paginate.ts';

test('an empty result is one empty page', () => {
  const page = paginate([], 1, 10);
  assert.deepEqual(page.items, []);
  assert.equal(page.totalPages, 1);
  assert.equal(page.hasNextPage, false);
});

test('fewer items than one page make one page', () => {
  const page = paginate(['a', 'b', 'c', 'd'], 1, 10);
  assert.deepEqual(page.items, ['a', 'b', 'c', 'd']);
  assert.equal(page.totalPages, 1);
  assert.equal(page.hasNextPage, false);
});

test('a page past the end is empty and has no next page; exact multiples are unchanged', () => {
  const items = Array.from({ length: 25 }, (_, i) => i);
  const beyond = paginate(items, 4, 10);
  assert.deepEqual(beyond.items, []);
  assert.equal(beyond.totalPages, 3);
  assert.equal(beyond.hasNextPage, false);
  assert.equal(
    paginate(
      Array.from({ length: 30 }, (_, i) => i),
      3,
      10,
    ).totalPages,
    3,
  );
});
