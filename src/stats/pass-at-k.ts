/**
 * Unbiased estimators from n attempts of a task of which c passed (Chen et al. 2021, "Evaluating
 * Large Language Models Trained on Code", and τ-bench's pass^k).
 */

function check(n: number, c: number, k: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
  if (!Number.isInteger(c) || c < 0 || c > n)
    throw new RangeError(`c must be an integer in [0, n], got ${c}`);
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
}

/**
 * pass@k = 1 - C(n-c, k) / C(n, k): the chance that at least one of k attempts drawn without
 * replacement from the n passes. Computed as 1 - Π_{i=n-c+1}^{n} (1 - k/i), which never forms a
 * large binomial coefficient. Null when k > n (not estimable from n attempts).
 */
export function passAtK(n: number, c: number, k: number): number | null {
  check(n, c, k);
  if (k > n) return null;
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/**
 * pass^k = C(c, k) / C(n, k): the chance that all k attempts drawn without replacement pass,
 * as Π_{i=0}^{k-1} (c - i) / (n - i). Null when k > n.
 */
export function passHatK(n: number, c: number, k: number): number | null {
  check(n, c, k);
  if (k > n) return null;
  if (c < k) return 0;
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return all;
}
