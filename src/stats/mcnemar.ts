/**
 * McNemar's exact test for paired pass/fail outcomes. Only the discordant pairs carry
 * information: b = tasks A passed and B failed, c = tasks A failed and B passed. Under the null
 * each discordant pair is a fair coin, so min(b, c) ~ Binomial(b + c, 1/2) and
 * p = min(1, 2 · Σ_{i ≤ min(b,c)} C(b+c, i) / 2^(b+c)).
 */

export interface McNemarResult {
  /** A passed, B failed (regressions of B). */
  readonly b: number;
  /** A failed, B passed (improvements of B). */
  readonly c: number;
  readonly discordant: number;
  readonly p_value: number;
  /** Lancaster's mid-p: 2·P(X < min) + P(X = min), capped at 1; less conservative than exact. */
  readonly mid_p_value: number;
}

function logSumExp(terms: readonly number[]): number {
  const max = Math.max(...terms);
  if (max === Number.NEGATIVE_INFINITY) return max;
  let s = 0;
  for (const t of terms) s += Math.exp(t - max);
  return max + Math.log(s);
}

/**
 * P(X ≤ k) and P(X = k) for X ~ Binomial(n, 1/2), with C(n, i) = C(n, i-1)(n-i+1)/i. Up to
 * n = 1000 both C(n, i) and 2^-n fit a double (and for n ≤ 50 every term is exact); beyond,
 * log space keeps 2^-n from underflowing.
 */
function halfBinomialTail(n: number, k: number): { cdf: number; atK: number } {
  let coefficient = 1;
  let total = 1;
  for (let i = 1; i <= k; i++) {
    coefficient = (coefficient * (n - i + 1)) / i;
    total += coefficient;
  }
  const half = 2 ** -n;
  return { cdf: total * half, atK: coefficient * half };
}

function logHalfBinomialTail(n: number, k: number): { cdf: number; atK: number } {
  const logs: number[] = [];
  let logC = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    logs.push(logC - n * Math.LN2);
  }
  return { cdf: Math.exp(logSumExp(logs)), atK: Math.exp(logs[k]!) };
}

export function mcnemarExact(b: number, c: number): McNemarResult {
  for (const [name, v] of [
    ['b', b],
    ['c', c],
  ] as const) {
    if (!Number.isInteger(v) || v < 0)
      throw new RangeError(`mcnemarExact: ${name} must be a count, got ${v}`);
  }
  const n = b + c;
  if (n === 0) return { b, c, discordant: 0, p_value: 1, mid_p_value: 1 };
  const k = Math.min(b, c);
  const { cdf, atK } = n <= 1000 ? halfBinomialTail(n, k) : logHalfBinomialTail(n, k);
  return {
    b,
    c,
    discordant: n,
    p_value: Math.min(1, 2 * cdf),
    mid_p_value: Math.min(1, 2 * cdf - atK),
  };
}

/** Counts b and c over the tasks both ran (task -> passed); tasks in only one side are ignored. */
export function discordantPairs(
  a: ReadonlyMap<string, boolean>,
  b: ReadonlyMap<string, boolean>,
): {
  b: number;
  c: number;
  both_pass: number;
  both_fail: number;
  regressions: string[];
  improvements: string[];
} {
  const regressions: string[] = [];
  const improvements: string[] = [];
  let bothPass = 0;
  let bothFail = 0;
  for (const [task, passedA] of a) {
    const passedB = b.get(task);
    if (passedB === undefined) continue;
    if (passedA && !passedB) regressions.push(task);
    else if (!passedA && passedB) improvements.push(task);
    else if (passedA) bothPass++;
    else bothFail++;
  }
  return {
    b: regressions.length,
    c: improvements.length,
    both_pass: bothPass,
    both_fail: bothFail,
    regressions,
    improvements,
  };
}
