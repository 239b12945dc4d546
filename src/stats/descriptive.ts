import { normalQuantile, studentTQuantile } from './distributions.ts';

/**
 * Descriptive statistics that never return NaN or ±Infinity: a value that is undefined for
 * the input (the mean of nothing, the variance of one number) is `null`. Non-finite inputs
 * (NaN, ±Infinity) are dropped first, so one bad number cannot poison an aggregate; callers
 * that must report them count them before calling.
 */

/** The finite numbers of `values`, in order. */
export function finiteValues(values: readonly number[]): number[] {
  return values.filter((value) => Number.isFinite(value));
}

export function sum(values: readonly number[]): number {
  // Kahan summation: totals of thousands of small costs stay exact to the last cent.
  let total = 0;
  let compensation = 0;
  for (const value of values) {
    if (!Number.isFinite(value)) continue;
    const y = value - compensation;
    const t = total + y;
    compensation = t - total - y;
    total = t;
  }
  return total;
}

export function mean(values: readonly number[]): number | null {
  const xs = finiteValues(values);
  if (xs.length === 0) return null;
  return sum(xs) / xs.length;
}

/** Sample variance with Bessel's correction (n - 1); null when fewer than 2 values. */
export function variance(values: readonly number[]): number | null {
  const xs = finiteValues(values);
  if (xs.length < 2) return null;
  const m = sum(xs) / xs.length;
  // Two-pass algorithm: numerically stable for values far from zero.
  let squares = 0;
  for (const x of xs) squares += (x - m) ** 2;
  return squares / (xs.length - 1);
}

export function standardDeviation(values: readonly number[]): number | null {
  const v = variance(values);
  return v === null ? null : Math.sqrt(v);
}

/** CLT standard error of the mean, sqrt(s² / n) (Miller 2024, eq. 1); null when n < 2. */
export function standardError(values: readonly number[]): number | null {
  const xs = finiteValues(values);
  const v = variance(xs);
  return v === null ? null : Math.sqrt(v / xs.length);
}

/**
 * The p-quantile by linear interpolation between order statistics: with the values sorted
 * x[0..n-1], h = (n - 1) p and q = x[⌊h⌋] + (h - ⌊h⌋)(x[⌊h⌋+1] - x[⌊h⌋]). This is Hyndman & Fan
 * type 7, the default of R's `quantile`, NumPy and Excel's PERCENTILE.INC.
 */
export function quantile(values: readonly number[], p: number): number | null {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile: p must be in [0, 1], got ${p}`);
  const xs = Float64Array.from(finiteValues(values)).sort();
  return sortedQuantile(xs, p);
}

/** `quantile` on values already sorted ascending (no copy; for bootstrap loops). */
export function sortedQuantile(sorted: ArrayLike<number>, p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (h - lo) * (b - a);
}

export function median(values: readonly number[]): number | null {
  return quantile(values, 0.5);
}

/**
 * How the half-width of an interval is found: `z` uses the normal quantile (1.96 at 95%), as
 * Miller (2024) recommends for evals of hundreds of questions; `t` uses Student's t with
 * `df` degrees of freedom, wider and more honest for a handful of tasks (n < 30).
 * The default is `z`, so intervals match the paper's.
 */
export type IntervalMethod = 'z' | 't';

export interface IntervalOptions {
  /** Confidence level, default 0.95. */
  readonly level?: number;
  readonly method?: IntervalMethod;
  /** Degrees of freedom for `t` (usually n - 1, or clusters - 1 for clustered errors). */
  readonly df?: number;
}

/** The two-sided critical value: 1.959963984540054 for z at 95%. */
export function criticalValue(options: IntervalOptions = {}): number {
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  const p = 1 - (1 - level) / 2;
  if ((options.method ?? 'z') === 'z') return normalQuantile(p);
  const df = options.df;
  if (df === undefined || !(df > 0)) throw new RangeError('a t interval needs df > 0');
  return studentTQuantile(p, df);
}

/** estimate ± critical × stderr; null when either is unknown (n < 2). */
export function confidenceInterval(
  estimate: number | null,
  stderr: number | null,
  options: IntervalOptions = {},
): [number, number] | null {
  if (estimate === null || stderr === null || !Number.isFinite(estimate) || !Number.isFinite(stderr)) {
    return null;
  }
  const half = criticalValue(options) * stderr;
  return [estimate - half, estimate + half];
}

/** 95% interval for the mean of `values` (z by default; pass `{ method: 't' }` for small n). */
export function ci95(
  values: readonly number[],
  options: Omit<IntervalOptions, 'level' | 'df'> = {},
): [number, number] | null {
  const xs = finiteValues(values);
  return confidenceInterval(mean(xs), standardError(xs), { ...options, level: 0.95, df: xs.length - 1 });
}

/** Pearson correlation; null when n < 2 or either side is constant. */
export function pearsonCorrelation(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new RangeError('pearsonCorrelation: xs and ys differ in length');
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    if (Number.isFinite(x) && Number.isFinite(y)) pairs.push([x, y]);
  }
  if (pairs.length < 2) return null;
  const mx = sum(pairs.map((p) => p[0])) / pairs.length;
  const my = sum(pairs.map((p) => p[1])) / pairs.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  // Rounding can push |r| a hair past 1 for perfectly correlated data.
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}
