import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/stats/bootstrap.ts';
import { ascendingOrder } from '../../../src/stats/sort-order.ts';

describe('ascendingOrder', () => {
  it('gives the positions in ascending order of value, ties in position order', () => {
    const random = mulberry32(5);
    for (const n of [0, 1, 2, 3, 7, 8, 9, 100, 1023, 1025]) {
      const values = Float64Array.from({ length: n }, () => Math.round(random() * 10) / 2 - 1);
      const expected = Array.from({ length: n }, (_, i) => i).sort(
        (a, b) => values[a]! - values[b]! || a - b,
      );
      expect([...ascendingOrder(values)], `n ${n}`).toEqual(expected);
    }
  });

  it('sorts plain arrays, negative values, zeros and infinities', () => {
    expect([...ascendingOrder([3, -1, Infinity, 0, -Infinity, 0, 2.5])]).toEqual([4, 1, 3, 5, 6, 0, 2]);
  });
});
