import { describe, expect, it } from 'vitest';
import { chunks } from '../../../src/util/chunks.ts';

describe('chunks', () => {
  it('cuts items into lists of the size, the last one shorter, none empty', () => {
    expect([...chunks([1, 2, 3, 4, 5], 2)]).toEqual([[1, 2], [3, 4], [5]]);
    expect([...chunks([1, 2, 3, 4], 2)]).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect([...chunks([], 3)]).toEqual([]);
    expect([...chunks([1, 2], 0)]).toEqual([[1], [2]]);
  });

  it('takes items only as its lists are used', () => {
    let made = 0;
    function* items() {
      for (let i = 0; i < 10; i++) {
        made++;
        yield i;
      }
    }
    const lists = chunks(items(), 4);
    expect(lists.next().value).toEqual([0, 1, 2, 3]);
    expect(made).toBe(4);
  });
});
