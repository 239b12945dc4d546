import { finiteValues, mean, sum } from './descriptive.ts';
import { type PairedDifference, type PairedOptions, pairedDifference } from './paired.ts';
import {
  epochsNeeded,
  minimumDetectableEffect,
  minimumDetectableEffectWithEpochs,
  type PowerOptions,
  tasksNeeded,
  tasksNeededWithEpochs,
} from './power.ts';

/**
 * What `compare` reports per metric (issue 5, part 1): the paired difference and, so that "not
 * significant" is never read as "no effect", what this design could have detected.
 */
export interface PairedComparison extends PairedDifference {
  /** SD of the per-task differences as the SE implies it (√n · SE): includes the clustering design effect. */
  readonly sd_difference: number | null;
  /** Smallest true difference this many tasks detect with the given power (default 80%, α 0.05). */
  readonly minimum_detectable_effect: number | null;
  /** Tasks needed to detect the observed difference (or `options.effect`) with that power. */
  readonly tasks_needed: number | null;
}

export function comparePaired(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  options: PairedOptions & PowerOptions & { readonly effect?: number } = {},
): PairedComparison {
  const paired = pairedDifference(a, b, options);
  const sd = paired.stderr === null ? null : paired.stderr * Math.sqrt(paired.n);
  const power = {
    ...(options.alpha ? { alpha: options.alpha } : {}),
    ...(options.power ? { power: options.power } : {}),
  };
  const effect = options.effect ?? paired.mean_difference;
  return {
    ...paired,
    sd_difference: sd,
    minimum_detectable_effect:
      sd === null ? null : minimumDetectableEffect({ ...power, tasks: paired.n, sd }),
    tasks_needed: sd === null || effect === null ? null : tasksNeeded({ ...power, effect, sd }),
  };
}

/** Variance components of a paired difference (Miller section 5): Var(d̄_i) = ω² + σ²_A/K_A + σ²_B/K_B. */
export interface PairedVariance {
  /** ω²: variance over tasks of the true per-task difference, floored at 0. */
  readonly between: number;
  /** σ²_A + σ²_B: within-task variance of one attempt of each; divided by K in a new design. */
  readonly within: number;
  readonly tasks: number;
}

function withinVariance(runs: readonly number[]): number | null {
  const xs = finiteValues(runs);
  if (xs.length < 2) return null;
  const m = sum(xs) / xs.length;
  return sum(xs.map((x) => (x - m) ** 2)) / (xs.length - 1);
}

/**
 * ω² and σ²_A + σ²_B from two experiments' per-task epoch scores (task -> scores). With one epoch
 * the within part cannot be separated: within is 0 and between is the whole variance of d.
 * Null when fewer than two tasks are shared.
 */
export function pairedVarianceComponents(
  a: ReadonlyMap<string, readonly number[]>,
  b: ReadonlyMap<string, readonly number[]>,
): PairedVariance | null {
  const diffs: number[] = [];
  const sampling: number[] = [];
  const withinA: number[] = [];
  const withinB: number[] = [];
  for (const [task, scoresA] of a) {
    const scoresB = b.get(task);
    const meanA = mean(scoresA);
    const meanB = scoresB === undefined ? null : mean(scoresB);
    if (meanA === null || meanB === null || scoresB === undefined) continue;
    diffs.push(meanB - meanA);
    const va = withinVariance(scoresA);
    const vb = withinVariance(scoresB);
    if (va !== null) withinA.push(va);
    if (vb !== null) withinB.push(vb);
    // This task's sampling variance of d̄_i, for subtracting from the observed variance of d.
    sampling.push((va ?? 0) / finiteValues(scoresA).length + (vb ?? 0) / finiteValues(scoresB).length);
  }
  if (diffs.length < 2) return null;
  const m = sum(diffs) / diffs.length;
  const observed = sum(diffs.map((d) => (d - m) ** 2)) / (diffs.length - 1);
  return {
    between: Math.max(0, observed - (mean(sampling) ?? 0)),
    within: (mean(withinA) ?? 0) + (mean(withinB) ?? 0),
    tasks: diffs.length,
  };
}

/**
 * The variance of a paired difference predicted from ONE baseline experiment (issue 5, part 4),
 * assuming the candidate has the same variances and the two correlate by `correlation` across
 * tasks: ω² = 2(1 - ρ)σ²_between, within = 2σ²_within. ρ defaults to 0, which overstates the
 * variance (two versions of a harness usually agree on which tasks are hard): a conservative plan.
 */
export function pairedVarianceFromBaseline(
  baseline: { readonly between: number; readonly within: number },
  correlation = 0,
): { between: number; within: number } {
  if (!(correlation >= -1 && correlation <= 1))
    throw new RangeError(`correlation must be in [-1, 1], got ${correlation}`);
  return { between: 2 * (1 - correlation) * baseline.between, within: 2 * baseline.within };
}

export interface PowerPlan {
  readonly tasks: number | null;
  readonly epochs: number;
  /** The effect detectable with `tasks` tasks and `epochs` epochs. */
  readonly minimum_detectable_effect: number | null;
  /** When an effect and a task count were given: the fewest epochs that suffice (null if none). */
  readonly epochs_needed: number | null;
}

/**
 * `harnesseval power`: given variance components of the paired difference and an effect, how many
 * tasks (at `epochs`, default 1) are needed; given a task count, what effect is detectable and how
 * many epochs would bring the target effect within reach.
 */
export function planPower(
  options: PowerOptions & {
    readonly between: number;
    readonly within: number;
    readonly effect?: number;
    readonly tasks?: number;
    readonly epochs?: number;
  },
): PowerPlan {
  const epochs = options.epochs ?? 1;
  const tasks =
    options.tasks ??
    (options.effect === undefined
      ? null
      : tasksNeededWithEpochs({ ...options, effect: options.effect, epochs }));
  return {
    tasks,
    epochs,
    minimum_detectable_effect:
      tasks === null ? null : minimumDetectableEffectWithEpochs({ ...options, tasks, epochs }),
    epochs_needed:
      options.effect === undefined || options.tasks === undefined
        ? null
        : epochsNeeded({ ...options, effect: options.effect, tasks: options.tasks }),
  };
}
