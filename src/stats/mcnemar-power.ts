import { logGamma, normalQuantile, regularizedIncompleteBeta } from './distributions.ts';

/**
 * Exact power of McNemar's exact test (no normal approximation, no simulation). Over n tasks
 * with one pass/fail verdict each, a task is discordant "A passes, B fails" with probability
 * `p10` and "A fails, B passes" with `p01`. The number of discordant tasks m is Binomial(n, p10 +
 * p01) and, given m, the improvements c are Binomial(m, p01 / (p10 + p01)). The two-sided exact
 * test rejects when min(b, c) ≤ k(m), the largest k with 2·P(Bin(m, ½) ≤ k) < α, so
 * power = Σ_m P(m) · P(min(b, c) ≤ k(m) | m), summed where P(m) is not negligible.
 */

export interface DiscordanceOptions {
  /** P(A passes and B fails) per task. */
  readonly p10: number;
  /** P(A fails and B passes) per task. */
  readonly p01: number;
  /** Two-sided level, default 0.05. */
  readonly alpha?: number;
}

/** P(X ≤ k) for X ~ Binomial(m, p), via the incomplete beta function; 0 for k < 0, 1 for k ≥ m. */
function binomialCdf(k: number, m: number, p: number): number {
  if (k < 0) return 0;
  if (k >= m) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  return regularizedIncompleteBeta(1 - p, m - k, k + 1);
}

function logBinomialPmf(k: number, n: number, p: number): number {
  if (p <= 0) return k === 0 ? 0 : Number.NEGATIVE_INFINITY;
  if (p >= 1) return k === n ? 0 : Number.NEGATIVE_INFINITY;
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log1p(-p);
}

/**
 * Critical counts already computed, by α then m: a power search calls `mcnemarPower` dozens of
 * times over the same range of m, and the binary search behind each count was most of
 * `compare`'s statistics on 10,000 tasks. A pure function of (m, α), so the cache changes no value.
 */
const criticalCounts = new Map<number, Map<number, number>>();

/** The largest k with 2·P(Bin(m, ½) ≤ k) < α (-1 when even k = 0 does not reject). */
export function mcnemarCriticalCount(m: number, alpha: number): number {
  let byM = criticalCounts.get(alpha);
  if (byM === undefined) {
    byM = new Map();
    criticalCounts.set(alpha, byM);
  }
  const known = byM.get(m);
  if (known !== undefined) return known;
  const k = searchCriticalCount(m, alpha);
  byM.set(m, k);
  return k;
}

function searchCriticalCount(m: number, alpha: number): number {
  let lo = -1;
  let hi = Math.floor(m / 2);
  while (hi - lo > 0) {
    const mid = Math.ceil((lo + hi) / 2);
    if (2 * binomialCdf(mid, m, 0.5) < alpha) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function check(options: DiscordanceOptions): { p10: number; p01: number; alpha: number } {
  const alpha = options.alpha ?? 0.05;
  const { p10, p01 } = options;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(p10 >= 0 && p01 >= 0 && p10 + p01 <= 1 + 1e-12))
    throw new RangeError(`p10 and p01 must be probabilities with p10 + p01 <= 1, got ${p10}, ${p01}`);
  return { p10, p01, alpha };
}

/**
 * The probability that McNemar's exact test over `tasks` tasks rejects at level α.
 *
 * @example mcnemarPower({ tasks: 396, p10: 0.2475, p01: 0.3475 }) // 0.8007
 */
export function mcnemarPower(options: DiscordanceOptions & { readonly tasks: number }): number {
  const { p10, p01, alpha } = check(options);
  const n = options.tasks;
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`tasks must be a positive integer, got ${n}`);
  const pd = Math.min(1, p10 + p01);
  if (pd === 0) return 0;
  const q = p01 / pd;
  // Only m within ±10 SD of n·pd carries probability a double can see.
  const sd = Math.sqrt(n * pd * (1 - pd));
  const from = Math.max(0, Math.floor(n * pd - 10 * sd - 1));
  const to = Math.min(n, Math.ceil(n * pd + 10 * sd + 1));
  let power = 0;
  for (let m = from; m <= to; m++) {
    const k = mcnemarCriticalCount(m, alpha);
    if (k < 0) continue;
    const weight = Math.exp(logBinomialPmf(m, n, pd));
    // c ≤ k (B regressed on nearly all discordant tasks) or b ≤ k (B improved on nearly all).
    power += weight * (binomialCdf(k, m, q) + binomialCdf(k, m, 1 - q));
  }
  return Math.min(1, power);
}

/**
 * The fewest tasks with which McNemar's exact test reaches the target power (default 0.8). Exact
 * power is not monotone in n (a sawtooth), so this is the first n that reaches it; a scan starts
 * below Connor's (1987) normal approximation. Null when p10 = p01 (nothing to detect) or beyond
 * `maxTasks` (default 20,000).
 */
export function mcnemarTasksNeeded(
  options: DiscordanceOptions & { readonly power?: number; readonly maxTasks?: number },
): number | null {
  const { p10, p01, alpha } = check(options);
  const target = options.power ?? 0.8;
  if (!(target > 0 && target < 1)) throw new RangeError(`power must be in (0, 1), got ${target}`);
  const delta = Math.abs(p01 - p10);
  const pd = p10 + p01;
  if (!(delta > 0)) return null;
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(target);
  const connor = (za * Math.sqrt(pd) + zb * Math.sqrt(Math.max(0, pd - delta * delta))) ** 2 / delta ** 2;
  const max = options.maxTasks ?? 20_000;
  for (let n = Math.max(1, Math.floor(connor * 0.6)); n <= max; n++) {
    if (mcnemarPower({ tasks: n, p10, p01, alpha }) >= target) return n;
  }
  return null;
}

/**
 * The smallest difference p01 - p10 that McNemar's exact test over `tasks` tasks detects with
 * the target power when a share `discordance` of tasks is discordant (the difference cannot
 * exceed it). Without a discordance (none observed), the difference is assumed to be all the
 * discordance there is (every discordant task moves one way): the most favourable case, so the
 * MDE is a lower bound. Null when even that would not suffice.
 */
export function mcnemarMinimumDetectableEffect(options: {
  readonly tasks: number;
  readonly discordance?: number | undefined;
  readonly alpha?: number;
  readonly power?: number;
}): number | null {
  const target = options.power ?? 0.8;
  const pd = options.discordance ?? 0;
  if (!(pd >= 0 && pd <= 1)) return null;
  const fixed = pd > 0;
  const at = (delta: number) =>
    mcnemarPower({
      tasks: options.tasks,
      p10: fixed ? (pd - delta) / 2 : 0,
      p01: fixed ? (pd + delta) / 2 : delta,
      ...(options.alpha === undefined ? {} : { alpha: options.alpha }),
    });
  const top = fixed ? pd : 1;
  if (at(top) < target) return null;
  let lo = 0;
  let hi = top;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (at(mid) < target) lo = mid;
    else hi = mid;
  }
  return hi;
}
