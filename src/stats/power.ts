import { normalQuantile, studentTQuantile } from './distributions.ts';
import { noncentralTCdf } from './noncentral-t.ts';

/**
 * Power of the paired t test (Student 1908; the planning of Miller 2024, section 5, with the t
 * distribution instead of the normal, as statsmodels' `TTestPower` does). With n tasks and true
 * mean difference δ over SD σ of the per-task differences, the test statistic is noncentral t
 * with n - 1 degrees of freedom and noncentrality (δ/σ)√n, and a two-sided test at level α
 * rejects with probability P(T > t_{1-α/2}) + P(T < -t_{1-α/2}). The normal approximation
 * (z_{1-α/2} + z_power)·σ/√n asks for too few tasks at small n: 2 instead of 5 for σ = 1, δ = 2.
 */

export interface PowerOptions {
  /** Two-sided significance level, default 0.05. */
  readonly alpha?: number;
  /** Default 0.8. */
  readonly power?: number;
}

function settings(options: PowerOptions): { alpha: number; power: number } {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
  return { alpha, power };
}

/** z_{1-α/2} + z_{power}: the normal approximation's multiplier (2.801585 at the defaults), a first guess only. */
export function powerMultiplier(options: PowerOptions = {}): number {
  const { alpha, power } = settings(options);
  return normalQuantile(1 - alpha / 2) + normalQuantile(power);
}

/**
 * The probability that a two-sided paired t test over `tasks` tasks rejects when the true
 * standardized difference (δ/σ) is `effectSize`. Null below 2 tasks (no t test).
 *
 * @example pairedTPower({ tasks: 10, effectSize: 1 }) // 0.8031 (statsmodels TTestPower)
 */
export function pairedTPower(options: {
  readonly tasks: number;
  readonly effectSize: number;
  readonly alpha?: number;
}): number | null {
  const { alpha } = settings({ ...(options.alpha === undefined ? {} : { alpha: options.alpha }) });
  if (!(options.tasks >= 2) || !Number.isFinite(options.effectSize)) return null;
  const df = options.tasks - 1;
  const critical = studentTQuantile(1 - alpha / 2, df);
  const nc = Math.abs(options.effectSize) * Math.sqrt(options.tasks);
  return 1 - noncentralTCdf(critical, df, nc) + noncentralTCdf(-critical, df, nc);
}

/** The smallest n ≥ 2 for which `reaches(n)`, which is monotone in n; null past `max`. */
function smallestTasks(reaches: (n: number) => boolean, guess: number, max = 10_000_000): number | null {
  let hi = Math.max(2, Math.ceil(guess));
  while (!reaches(hi)) {
    if (hi >= max) return null;
    hi = Math.min(max, hi * 2);
  }
  let lo = 1; // reaches(1) is false: no t test on one task
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (mid >= 2 && reaches(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Tasks a paired t test needs to detect `effect` with the given power, SD `sd` of the per-task
 * differences: the smallest n whose t power reaches the target (statsmodels' `solve_power`,
 * rounded up). Null for a zero effect or a zero SD (then the exact sign test decides: see
 * `signTestTasksNeeded`).
 *
 * @example tasksNeeded({ effect: 0.1, sd: 0.3 }) // 73 (the normal approximation says 71)
 */
export function tasksNeeded(
  options: PowerOptions & { readonly effect: number; readonly sd: number },
): number | null {
  const { alpha, power } = settings(options);
  const effect = Math.abs(options.effect);
  if (!(effect > 0) || !(options.sd > 0) || !Number.isFinite(options.sd)) return null;
  const d = effect / options.sd;
  const guess = (powerMultiplier({ alpha, power }) / d) ** 2;
  return smallestTasks((n) => (pairedTPower({ tasks: n, effectSize: d, alpha }) ?? 0) >= power, guess);
}

/**
 * The smallest true difference a paired t test over `tasks` tasks detects with the given power
 * (the δ at which its power equals the target). Null below 2 tasks or for a zero SD.
 *
 * @example minimumDetectableEffect({ tasks: 50, sd: 0.3 }) // 0.121255 (z: 0.118861)
 */
export function minimumDetectableEffect(
  options: PowerOptions & { readonly tasks: number; readonly sd: number },
): number | null {
  const { alpha, power } = settings(options);
  if (!(options.tasks >= 2) || !(options.sd > 0) || !Number.isFinite(options.sd)) return null;
  const at = (d: number) => pairedTPower({ tasks: options.tasks, effectSize: d, alpha }) ?? 0;
  let lo = 0;
  let hi = powerMultiplier({ alpha, power }) / Math.sqrt(options.tasks);
  while (at(hi) < power) hi *= 2;
  for (let i = 0; i < 100 && hi - lo > 1e-13 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (at(mid) < power) lo = mid;
    else hi = mid;
  }
  return ((lo + hi) / 2) * options.sd;
}

/**
 * With no spread at all the t test is undefined and the exact sign test decides: n tasks that
 * all move the same way give p = 2·0.5^n, so it takes the smallest n with 2·0.5^n < α
 * (6 tasks at α = 0.05).
 */
export function signTestTasksNeeded(options: { readonly alpha?: number } = {}): number {
  const { alpha } = settings(options);
  return Math.max(1, Math.floor(1 - Math.log2(alpha)) + 1);
}

export interface EpochVariance {
  /** σ²_between: variance of the per-task true (mean) differences or scores. */
  readonly between: number;
  /** σ²_within: mean within-task variance of one attempt (for a difference, σ²_A + σ²_B). */
  readonly within: number;
}

/**
 * Variance of one task's mean over K epochs: σ²_between + σ²_within / K. Resampling shrinks only
 * the within-task part, so epochs help most when answers are noisy and tasks agree.
 */
export function varianceWithEpochs(variance: EpochVariance, epochs: number): number {
  if (!(epochs >= 1)) throw new RangeError(`epochs must be >= 1, got ${epochs}`);
  return variance.between + variance.within / epochs;
}

/** Tasks needed to detect `effect` when each task runs `epochs` times. */
export function tasksNeededWithEpochs(
  options: PowerOptions & EpochVariance & { readonly effect: number; readonly epochs: number },
): number | null {
  return tasksNeeded({ ...options, sd: Math.sqrt(varianceWithEpochs(options, options.epochs)) });
}

/** MDE with `tasks` tasks each run `epochs` times. */
export function minimumDetectableEffectWithEpochs(
  options: PowerOptions & EpochVariance & { readonly tasks: number; readonly epochs: number },
): number | null {
  return minimumDetectableEffect({ ...options, sd: Math.sqrt(varianceWithEpochs(options, options.epochs)) });
}

/**
 * The fewest epochs (up to `maxEpochs`, default 100) with which `tasks` tasks detect `effect`;
 * null when even infinitely many epochs would not (σ²_between alone is too large). At a fixed
 * n the t test's MDE is proportional to σ, so the variance a design tolerates is
 * (effect / MDE at σ = 1)².
 */
export function epochsNeeded(
  options: PowerOptions &
    EpochVariance & { readonly effect: number; readonly tasks: number; readonly maxEpochs?: number },
): number | null {
  const effect = Math.abs(options.effect);
  if (!(effect > 0) || !(options.tasks >= 2)) return null;
  const unit = minimumDetectableEffect({ ...options, sd: 1 });
  if (unit === null) return null;
  const budget = (effect / unit) ** 2;
  if (options.between >= budget) return null;
  if (options.within === 0) return 1;
  const k = Math.max(1, Math.ceil(options.within / (budget - options.between) - 1e-9));
  return k <= (options.maxEpochs ?? 100) ? k : null;
}
