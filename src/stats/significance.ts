import { finiteValues, mean, sum } from './descriptive.ts';
import { mcnemarMinimumDetectableEffect, mcnemarTasksNeeded } from './mcnemar-power.ts';
import type { PairedOptions } from './paired.ts';
import { type PairedKind, type PairedTest, pairedTest } from './paired-test.ts';
import {
  epochsNeeded,
  minimumDetectableEffect,
  minimumDetectableEffectWithEpochs,
  type PowerOptions,
  signTestTasksNeeded,
  tasksNeeded,
  tasksNeededWithEpochs,
} from './power.ts';

/**
 * What `compare` reports per metric: the paired test and, so that "not significant" is never
 * read as "no effect", what this design could have detected — by the power of the test that
 * decided: noncentral t for the t test, exact McNemar power for pass/fail verdicts.
 */
export interface PairedComparison extends PairedTest {
  /** SD of the per-task differences as the SE implies it (√G · SE): includes the clustering design effect. */
  readonly sd_difference: number | null;
  /** Smallest true difference this many tasks detect with the given power (default 80%, α 0.05). */
  readonly minimum_detectable_effect: number | null;
  /** Tasks needed to detect the observed difference (or `options.effect`) with that power. */
  readonly tasks_needed: number | null;
  /** The power calculation behind the two figures above. */
  readonly power_method: 't' | 'mcnemar_exact' | 'sign_test' | null;
}

function binaryPower(test: PairedTest, effect: number | null, power: PowerOptions) {
  const m = test.mcnemar;
  if (m === null || test.n === 0) return { mde: null, needed: null };
  const discordance = m.discordant / test.n;
  const mde = mcnemarMinimumDetectableEffect({
    tasks: test.n,
    ...(discordance > 0 ? { discordance } : {}),
    ...power,
  });
  const delta = effect === null ? 0 : Math.abs(effect);
  // Plan at the observed discordance, or the least a difference of this size implies.
  const pd = Math.min(1, Math.max(discordance, delta));
  const needed =
    delta > 0 ? mcnemarTasksNeeded({ p10: (pd - delta) / 2, p01: (pd + delta) / 2, ...power }) : null;
  return { mde, needed };
}

/**
 * The paired test of `kind` (default continuous) with its power figures. For a clustered test
 * the power uses the G clusters as the units (t with G - 1 df) and SD = √G · SE.
 */
export function comparePaired(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  options: PairedOptions & PowerOptions & { readonly effect?: number; readonly kind?: PairedKind } = {},
): PairedComparison {
  const test = pairedTest(a, b, { ...options, kind: options.kind ?? 'continuous' });
  const units = test.clustered ? test.clusters : test.n;
  const sd = test.stderr === null ? null : test.stderr * Math.sqrt(units);
  const power = {
    ...(options.alpha ? { alpha: options.alpha } : {}),
    ...(options.power ? { power: options.power } : {}),
  };
  const effect = options.effect ?? test.mean_difference;
  if (test.test === 'mcnemar_exact') {
    const { mde, needed } = binaryPower(test, effect, power);
    return {
      ...test,
      sd_difference: sd,
      minimum_detectable_effect: mde,
      tasks_needed: needed,
      power_method: 'mcnemar_exact',
    };
  }
  if (test.test === 'sign_test') {
    return {
      ...test,
      sd_difference: 0,
      minimum_detectable_effect: null,
      tasks_needed: signTestTasksNeeded(power),
      power_method: 'sign_test',
    };
  }
  return {
    ...test,
    sd_difference: sd,
    minimum_detectable_effect: sd === null ? null : minimumDetectableEffect({ ...power, tasks: units, sd }),
    tasks_needed: sd === null || effect === null ? null : tasksNeeded({ ...power, effect, sd }),
    power_method: sd === null ? null : 't',
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
