import { describe, expect, it } from 'vitest';
import { passAtK, passHatK } from '../../../src/stats/pass-at-k.ts';

/** All k-subsets of {0..n-1}. */
function subsets(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (let first = 0; first <= n - k; first++) {
    for (const rest of subsets(n - first - 1, k - 1)) out.push([first, ...rest.map((r) => r + first + 1)]);
  }
  return out;
}

describe('pass@k and pass^k', () => {
  it('match the hand computation', () => {
    // n = 5, c = 2, k = 2: 1 - C(3,2)/C(5,2) = 1 - 3/10 = 0.7; pass^2 = C(2,2)/C(5,2) = 0.1
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 15);
    expect(passHatK(5, 2, 2)).toBeCloseTo(0.1, 15);
    // k = 1: both are c/n
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 15);
    expect(passHatK(10, 3, 1)).toBeCloseTo(0.3, 15);
  });

  it('equal the share of k-subsets with any / all passes, for every n ≤ 7', () => {
    for (let n = 1; n <= 7; n++) {
      for (let c = 0; c <= n; c++) {
        // attempts 0..c-1 pass
        for (let k = 1; k <= n; k++) {
          const all = subsets(n, k);
          const any = all.filter((s) => s.some((i) => i < c)).length / all.length;
          const every = all.filter((s) => s.every((i) => i < c)).length / all.length;
          expect(passAtK(n, c, k)).toBeCloseTo(any, 12);
          expect(passHatK(n, c, k)).toBeCloseTo(every, 12);
        }
      }
    }
  });

  it('handles the edges', () => {
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(5, 5, 3)).toBe(1);
    expect(passAtK(5, 3, 3)).toBe(1); // n - c = 2 < k
    expect(passHatK(5, 2, 3)).toBe(0);
    expect(passAtK(2, 1, 3)).toBeNull(); // k > n: not estimable
    expect(passHatK(2, 1, 3)).toBeNull();
    expect(passAtK(0, 0, 1)).toBeNull();
  });

  it('is stable for large n (no huge binomial coefficients)', () => {
    // n = 2000, c = 10, k = 100: 1 - Π_{i=1991}^{2000} (1 - 100/i), finite and in (0, 1)
    const value = passAtK(2000, 10, 100)!;
    expect(value).toBeGreaterThan(0.4);
    expect(value).toBeLessThan(0.41);
  });

  it('rejects invalid counts', () => {
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 0)).toThrow(RangeError);
    expect(() => passAtK(-1, 0, 1)).toThrow(RangeError);
    expect(() => passHatK(3, 1.5, 1)).toThrow(RangeError);
  });
});
