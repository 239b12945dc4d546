import type { Direction, MetricResult } from '../core/experiment.ts';
import { type EpochStandardError, overTaskMeans, taskMeans } from '../stats/clustered.ts';
import { confidenceInterval } from '../stats/descriptive.ts';
import { wilsonInterval } from '../stats/proportion.ts';
import { formatMetricValue, type MetricUnit } from './format.ts';
import type { MetricInput } from './types.ts';

/** One trial's contribution to a metric. */
export interface TrialValue {
  readonly task: string;
  readonly value: number;
}

export interface MetricShape {
  readonly name: string;
  readonly direction: Direction;
  readonly description: string;
  readonly unit: MetricUnit;
  /** The range the value can take: the interval is clipped to it (a t interval of a score can pass 1). */
  readonly bounds?: readonly [number, number];
}

/** Task id -> cluster, for the tasks that carry one. */
export function clusterLookup(input: Pick<MetricInput, 'tasks'>): (task: string) => string | undefined {
  const clusters = new Map<string, string>();
  for (const task of input.tasks) if (task.cluster !== undefined) clusters.set(task.id, task.cluster);
  return (task) => clusters.get(task);
}

function clip(interval: [number, number] | null, bounds: readonly [number, number] | undefined) {
  if (interval === null || bounds === undefined) return interval;
  const [lo, hi] = bounds;
  return [Math.min(hi, Math.max(lo, interval[0])), Math.min(hi, Math.max(lo, interval[1]))] satisfies [
    number,
    number,
  ];
}

/** Durations, token counts, minutes, counts and money cannot be negative, so neither can their intervals. */
function naturalBounds(unit: MetricUnit): readonly [number, number] | undefined {
  return unit === 'ratio' || unit === 'score' ? undefined : [0, Number.POSITIVE_INFINITY];
}

/** A result with nothing to aggregate: value null, "n/a". */
export function emptyResult(shape: MetricShape, details: Record<string, unknown> = {}): MetricResult {
  return {
    name: shape.name,
    value: null,
    formatted_value: 'n/a',
    direction: shape.direction,
    n: 0,
    stderr: null,
    ci95: null,
    description: shape.description,
    unit: shape.unit,
    details,
  };
}

/**
 * How a metric's 95% interval is made (stored as `MetricResult.ci_method`; docs/statistics.md):
 * `t` — mean ± t(n-1)·SE over tasks; `cluster_t` — CR1 clustered SE with t(G-1);
 * `wilson` — Wilson's score interval of a pass rate with one trial per task;
 * `wilson_effective_n` — Wilson at the effective sample size p(1-p)/SE² when epochs or clusters
 * make trials dependent (Korn & Graubard 1998); `delta_method_t` — a ratio's linearised SE with
 * t(n-1); `bootstrap_percentile` — percentile bootstrap over tasks or clusters.
 */
export type MetricIntervalMethod =
  | 't'
  | 'cluster_t'
  | 'wilson'
  | 'wilson_effective_n'
  | 'delta_method_t'
  | 'bootstrap_percentile';

export interface MetricEstimate {
  readonly value: number | null;
  readonly stderr: number | null;
  /** Independent units (tasks). */
  readonly n: number;
  /** Degrees of freedom of the t interval, default n - 1 (G - 1 when clustered). */
  readonly df?: number | undefined;
}

/**
 * Assembles a result from a value and its standard error, never letting NaN or ±Infinity through.
 * The interval is `interval` when given, else value ± t(df)·SE labelled `method` (default `t`).
 */
export function metricResult(
  shape: MetricShape,
  estimate: MetricEstimate,
  details: Record<string, unknown>,
  interval: {
    readonly ci?: [number, number] | null;
    readonly method?: MetricIntervalMethod;
  } = {},
): MetricResult {
  const value = estimate.value !== null && Number.isFinite(estimate.value) ? estimate.value : null;
  const stderr =
    value !== null && estimate.n >= 2 && estimate.stderr !== null && Number.isFinite(estimate.stderr)
      ? estimate.stderr
      : null;
  const df = estimate.df ?? estimate.n - 1;
  const ci =
    interval.ci !== undefined
      ? interval.ci
      : stderr === null || !(df >= 1)
        ? null
        : confidenceInterval(value, stderr, { method: 't', df });
  return {
    name: shape.name,
    value,
    formatted_value: formatMetricValue(value, shape.unit),
    direction: shape.direction,
    n: estimate.n,
    stderr,
    ci95: value === null ? null : clip(ci, shape.bounds ?? naturalBounds(shape.unit)),
    ...(value === null || ci === null ? {} : { ci_method: interval.method ?? 't' }),
    description: shape.description,
    unit: shape.unit,
    details,
  };
}

/**
 * A pass rate's interval: Wilson with n tasks when each task has one trial and no cluster;
 * otherwise Wilson at the effective sample size p(1-p)/SE₀², SE₀² the clustered (or over-task)
 * variance with divisor G instead of G - 1, so that one trial per task gives back n exactly.
 * All tasks agreeing (p = 0 or 1) leave the design effect unknown: n is the number of tasks then.
 */
function rateInterval(
  estimate: EpochStandardError,
): { ci: [number, number] | null; method: MetricIntervalMethod } | undefined {
  const p = estimate.mean;
  if (p === null || estimate.n < 1) return undefined;
  if (!estimate.clustered && estimate.trials === estimate.n)
    return { ci: wilsonInterval(p * estimate.n, estimate.n), method: 'wilson' };
  // A single cluster says nothing about the spread (its residuals sum to zero): no interval.
  if (estimate.clustered && estimate.stderr === null) return { ci: null, method: 'wilson_effective_n' };
  const units = estimate.clustered ? estimate.clusters : estimate.n;
  const se0 = estimate.stderr === null || units < 2 ? null : estimate.stderr ** 2 * ((units - 1) / units);
  const effective =
    p === 0 || p === 1 || se0 === null || se0 === 0
      ? estimate.n
      : Math.min(estimate.trials, (p * (1 - p)) / se0);
  return { ci: wilsonInterval(p * effective, effective), method: 'wilson_effective_n' };
}

export function isVerdict(value: number): boolean {
  return value === 0 || value === 1;
}

/**
 * The mean of a per-trial quantity with its error bar. Trials are averaged per task first (the
 * mean over epochs), then over tasks, so n is the number of tasks and the SE is the CLT SE over
 * per-task means — clustered (CR1, t with G - 1 df) when any task carries a cluster. With one
 * trial per task this is the plain mean and CLT SE over trials. A pass/fail quantity (every
 * trial 0 or 1) gets a Wilson interval; anything else a t interval.
 */
export function meanOverTasks(
  input: Pick<MetricInput, 'tasks' | 'epochs'>,
  trials: readonly TrialValue[],
  shape: MetricShape,
  details: Record<string, unknown> = {},
): MetricResult {
  const finite = trials.filter((t) => Number.isFinite(t.value));
  const binary = trials.length > 0 && trials.every((t) => isVerdict(t.value));
  return meanOverTaskMeans(
    input,
    { means: taskMeans(finite), trials: finite.length, binary },
    shape,
    details,
  );
}

/** What `meanOverTasks` reads of its trials: per-task means, how many trials, all 0 or 1. */
export interface TaskMeanSummary {
  readonly means: ReadonlyMap<string, number>;
  readonly trials: number;
  readonly binary: boolean;
}

/** `meanOverTasks` from the per-task means a fold keeps instead of the trials. */
export function meanOverTaskMeans(
  input: Pick<MetricInput, 'tasks' | 'epochs'>,
  summary: TaskMeanSummary,
  shape: MetricShape,
  details: Record<string, unknown> = {},
): MetricResult {
  const clusterOf = clusterLookup(input);
  const estimate = overTaskMeans(summary.means, summary.trials, { clusterOf, correction: 'cr1' });
  const full = {
    ...details,
    trials: estimate.trials,
    tasks: estimate.n,
    epochs: input.epochs,
    stderr_method: estimate.clustered ? 'clustered_cr1' : 'clt_over_task_means',
    ...(estimate.clustered ? { clusters: estimate.clusters } : {}),
    // The residuals of a single cluster sum to zero: the clustered SE says nothing.
    ...(estimate.clustered && estimate.clusters < 2 && estimate.n >= 2
      ? { stderr_unavailable: 'all tasks are in one cluster' }
      : {}),
  };
  if (estimate.n === 0) return emptyResult(shape, full);
  const rate = summary.binary && shape.unit === 'ratio' ? rateInterval(estimate) : undefined;
  return metricResult(
    shape,
    {
      value: estimate.mean,
      stderr: estimate.stderr,
      n: estimate.n,
      ...(estimate.clustered ? { df: estimate.clusters - 1 } : {}),
    },
    full,
    rate ?? { method: estimate.clustered ? 'cluster_t' : 't' },
  );
}
