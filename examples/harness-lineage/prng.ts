/** A seeded random source in [0, 1). */
export type Random = () => number;

/**
 * mulberry32: a small, fast 32-bit PRNG. Not for cryptography; here it makes a simulated run
 * reproducible from its seed. The seed is mixed first so that neighbouring seeds diverge at once.
 */
export function prng(seed: number): Random {
  let state = Math.imul(Math.trunc(seed) ^ 0x9e3779b9, 0x85ebca6b) >>> 0 || 1;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The Poisson quantile of `u` in [0, 1): the smallest k with P(X <= k) >= u. One uniform per draw,
 * and monotone in the mean, so two versions sharing `u` compare like for like.
 */
export function poissonQuantile(u: number, mean: number): number {
  if (mean <= 0) return 0;
  let k = 0;
  let p = Math.exp(-mean);
  let cdf = p;
  while (cdf < u && k < 1000) {
    k++;
    p *= mean / k;
    cdf += p;
  }
  return k;
}
