import type { Direction, Experiment, MetricResult } from '../core/experiment.ts';
import type { MetricV1 } from '../metrics/types.ts';
import { comparePaired, type PairedComparison } from '../stats/significance.ts';
import { metricDelta } from './delta.ts';
import type { PairScope } from './pair-scope.ts';
import { metricInput, perTaskValues } from './per-task.ts';

/** One candidate's change on one metric before the family of tests is adjusted. */
export interface RawDelta {
  readonly baseline_value: number | null;
  readonly value: number | null;
  readonly basis: 'shared_tasks' | 'all_tasks';
  readonly direction: ReturnType<typeof metricDelta>;
  readonly test: PairedComparison | null;
  /** Per-task differences in A's task order, for the sequential verdict. */
  readonly differences: readonly number[];
  /** The per-task values the test ran on and its kind, for the per-domain tests (by-domain.ts). */
  readonly perTask?: {
    readonly a: ReadonlyMap<string, number>;
    readonly b: ReadonlyMap<string, number>;
    readonly kind: 'binary' | 'continuous';
  };
}

/** The stored result, or — for a metric the experiment did not store — computed from its records. */
export function resultFor(
  experiment: Experiment,
  name: string,
  metric: MetricV1 | undefined,
): MetricResult | undefined {
  const stored = experiment.metrics.find((m) => m.name === name);
  if (stored !== undefined || metric === undefined) return stored;
  return calculated(experiment, metric);
}

function calculated(
  experiment: Experiment,
  metric: MetricV1,
  options: { readonly valueOnly?: boolean } = {},
): MetricResult | undefined {
  try {
    return metric.calculate({ ...metricInput(experiment), ...options });
  } catch {
    return undefined;
  }
}

const singleAttempt = new WeakMap<Experiment, boolean>();

/**
 * At most one attempt per task: each per-task value is then one trial's own value. Asked once per
 * metric of the same scope: kept per experiment object (scopes are not changed after they are made).
 */
function oneAttemptPerTask(experiment: Experiment): boolean {
  const known = singleAttempt.get(experiment);
  if (known !== undefined) return known;
  const seen = new Set<string>();
  let single = true;
  for (const r of experiment.records) {
    if (seen.has(r.task_id)) {
      single = false;
      break;
    }
    seen.add(r.task_id);
  }
  singleAttempt.set(experiment, single);
  return single;
}

/**
 * A total's paired statistics in the total's unit: over N shared tasks the difference of the
 * totals is N times the mean per-task difference, and so are its SE, interval and MDE.
 */
function asTotal(test: PairedComparison): PairedComparison {
  const n = test.n;
  const times = (x: number | null) => (x === null ? null : x * n);
  return {
    ...test,
    mean_a: times(test.mean_a),
    mean_b: times(test.mean_b),
    mean_difference: times(test.mean_difference),
    stderr: times(test.stderr),
    ci95: test.ci95 === null ? null : [test.ci95[0] * n, test.ci95[1] * n],
    minimum_detectable_effect: times(test.minimum_detectable_effect),
  };
}

/**
 * B against A on one metric, over the tasks both ran: the paired test of the metric's per-task
 * values when it has them (its difference is the delta, so the direction, the interval and the
 * p-value can never disagree), else the metric recomputed on the shared tasks' records.
 */
export function rawDelta(options: {
  readonly metric: MetricV1 | undefined;
  readonly direction: Direction;
  readonly scope: PairScope;
  readonly wholeValues: readonly [number | null, number | null];
  readonly clusters: ReadonlyMap<string, string | undefined>;
  readonly alpha: number;
  /** The metric's unit: only a rate (`ratio`) can be a pass/fail verdict per task. */
  readonly unit: string | undefined;
}): RawDelta {
  const { metric, direction, scope } = options;
  if (scope.shared.length === 0 || metric === undefined) {
    const [base, value] = options.wholeValues;
    return {
      baseline_value: base,
      value,
      basis: scope.shared.length === 0 ? 'all_tasks' : 'shared_tasks',
      direction: metricDelta(base, value, direction),
      test: null,
      differences: [],
    };
  }
  const a = perTaskValues(metric, scope.sharedBaseline);
  const b = perTaskValues(metric, scope.sharedCandidate);
  if (a === undefined || b === undefined || a.size === 0 || b.size === 0) {
    const base = calculated(scope.sharedBaseline, metric, { valueOnly: true })?.value ?? null;
    const value = calculated(scope.sharedCandidate, metric, { valueOnly: true })?.value ?? null;
    return {
      baseline_value: base,
      value,
      basis: 'shared_tasks',
      direction: metricDelta(base, value, direction),
      test: null,
      differences: [],
    };
  }
  // A count of 0 or 1 HITL steps is not a verdict: McNemar is for rates with one attempt per task.
  const binary =
    options.unit === 'ratio' &&
    oneAttemptPerTask(scope.sharedBaseline) &&
    oneAttemptPerTask(scope.sharedCandidate);
  const perTask = comparePaired(a, b, {
    clusters: options.clusters,
    alpha: options.alpha,
    kind: binary ? 'binary' : 'continuous',
  });
  const test = metric.aggregate === 'sum' ? asTotal(perTask) : perTask;
  const base = test.mean_a;
  const value = test.mean_b;
  const delta = metricDelta(base, value, direction);
  return {
    baseline_value: base,
    value,
    basis: 'shared_tasks',
    // The paired mean difference is exactly B - A over these tasks; take it rather than a rounded subtraction.
    direction: { ...delta, delta: delta.delta === 0 ? 0 : test.mean_difference },
    test,
    differences: perTask.tasks.map((t) => b.get(t)! - a.get(t)!),
    perTask: { a, b, kind: binary ? 'binary' : 'continuous' },
  };
}
