import { normalQuantile } from './distributions.ts';

/**
 * Power analysis for paired comparisons (Miller 2024, section 5), normal approximation.
 * A two-sided test at level α detects a true mean difference δ with probability `power` when
 * δ = (z_{1-α/2} + z_{power}) · SD / √n, SD the standard deviation of the per-task differences.
 */

export interface PowerOptions {
  /** Two-sided significance level, default 0.05. */
  readonly alpha?: number;
  /** Default 0.8. */
  readonly power?: number;
}

/** z_{1-α/2} + z_{power}: 1.959964 + 0.841621 = 2.801585 at the defaults. */
export function powerMultiplier(options: PowerOptions = {}): number {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
  return normalQuantile(1 - alpha / 2) + normalQuantile(power);
}

/** The smallest true difference detectable with `tasks` paired tasks; null when tasks < 1. */
export function minimumDetectableEffect(
  options: PowerOptions & { readonly tasks: number; readonly sd: number },
): number | null {
  if (!(options.tasks >= 1) || !(options.sd >= 0)) return null;
  return (powerMultiplier(options) * options.sd) / Math.sqrt(options.tasks);
}

/** Tasks needed to detect `effect`: ⌈((z_a + z_b) · SD / δ)²⌉; null for a zero effect. */
export function tasksNeeded(
  options: PowerOptions & { readonly effect: number; readonly sd: number },
): number | null {
  const effect = Math.abs(options.effect);
  if (!(effect > 0) || !(options.sd >= 0)) return null;
  const n = ((powerMultiplier(options) * options.sd) / effect) ** 2;
  // Guard against 16.000000000000004 rounding up to 17.
  return Math.max(1, Math.ceil(n - 1e-9));
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
 * null when even infinitely many epochs would not (σ²_between alone is too large).
 */
export function epochsNeeded(
  options: PowerOptions &
    EpochVariance & { readonly effect: number; readonly tasks: number; readonly maxEpochs?: number },
): number | null {
  const effect = Math.abs(options.effect);
  if (!(effect > 0) || !(options.tasks >= 1)) return null;
  // Largest variance of a task mean the design tolerates: (δ / multiplier)² · n.
  const budget = (effect / powerMultiplier(options)) ** 2 * options.tasks;
  if (options.between >= budget) return null;
  if (options.within === 0) return 1;
  const k = Math.max(1, Math.ceil(options.within / (budget - options.between) - 1e-9));
  return k <= (options.maxEpochs ?? 100) ? k : null;
}
