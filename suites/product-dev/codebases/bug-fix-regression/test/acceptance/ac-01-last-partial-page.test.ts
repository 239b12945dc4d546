import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paginate } from '../../src/paginate.ts';

const items = Array.from({ length: 25 }, (_, i) => i + 1);

test('bug #212: 25 items at 10 per page make 3 pages and the last 5 are reachable', () => {
  assert.equal(paginate(items, 1, 10).totalPages, 3);
  assert.equal(paginate(items, 2, 10).hasNextPage, true);
  const last = paginate(items, 3, 10);
  assert.deepEqual(last.items, [21, 22, 23, 24, 25]);
  assert.equal(last.totalPages, 3);
  assert.equal(last.hasNextPage, false);
  assert.equal(last.hasPreviousPage, true);
});
