import { normalQuantile, regularizedIncompleteBeta } from './distributions.ts';

/**
 * Intervals for a proportion (Agresti & Coull 1998; Brown, Cai & DasGupta 2001). The Wald
 * interval p̂ ± z·SE collapses to [1, 1] at 3 of 3 and covers badly for small n or p̂ near 0 or 1;
 * Wilson's score interval does neither, and Clopper–Pearson's is exact (never below the level).
 */

function checkLevel(level: number): void {
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
}

/**
 * Wilson's score interval for `successes` of `n` (non-integer counts are allowed, for an
 * effective sample size): the p with |p̂ - p| ≤ z·√(p(1-p)/n), in closed form.
 * Null when n is 0. Example: 2 of 3 -> [0.2077, 0.9385]; 3 of 3 -> [0.4385, 1].
 */
export function wilsonInterval(successes: number, n: number, level = 0.95): [number, number] | null {
  checkLevel(level);
  if (!(n > 0) || !(successes >= 0) || successes > n) return null;
  const z = normalQuantile(1 - (1 - level) / 2);
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At p̂ = 0 or 1 one end is exactly 0 or 1; rounding must not move it.
  return [p === 0 ? 0 : Math.max(0, centre - half), p === 1 ? 1 : Math.min(1, centre + half)];
}

/** The q-quantile of Beta(a, b), by bisection on the regularized incomplete beta function. */
export function betaQuantile(q: number, a: number, b: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`betaQuantile: q must be in [0, 1], got ${q}`);
  if (q === 0) return 0;
  if (q === 1) return 1;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (regularizedIncompleteBeta(mid, a, b) < q) lo = mid;
    else hi = mid;
    if (hi - lo < 1e-15) break;
  }
  return (lo + hi) / 2;
}

/**
 * The exact (Clopper–Pearson) interval for x successes of n: the Beta quantiles
 * [B(α/2; x, n-x+1), B(1-α/2; x+1, n-x)], with 0 and 1 at the edges. It inverts two one-sided
 * exact binomial tests, so it excludes p0 exactly when one of them rejects at α/2.
 */
export function clopperPearsonInterval(x: number, n: number, level = 0.95): [number, number] | null {
  checkLevel(level);
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(x) || x < 0 || x > n) return null;
  const alpha = 1 - level;
  return [
    x === 0 ? 0 : betaQuantile(alpha / 2, x, n - x + 1),
    x === n ? 1 : betaQuantile(1 - alpha / 2, x + 1, n - x),
  ];
}
