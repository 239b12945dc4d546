import type { Direction, MetricResult } from '../core/experiment.ts';
import { epochStandardError } from '../stats/clustered.ts';
import { confidenceInterval } from '../stats/descriptive.ts';
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
  /** The range the value can take: the interval is clipped to it (a rate's Wald interval can pass 1). */
  readonly bounds?: readonly [number, number];
}

/** Task id -> cluster, for the tasks that carry one. */
export function clusterLookup(input: MetricInput): (task: string) => string | undefined {
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

/** Assembles a result from a value and its standard error, never letting NaN or ±Infinity through. */
export function metricResult(
  shape: MetricShape,
  estimate: { value: number | null; stderr: number | null; n: number },
  details: Record<string, unknown>,
): MetricResult {
  const value = estimate.value !== null && Number.isFinite(estimate.value) ? estimate.value : null;
  const stderr =
    value !== null && estimate.n >= 2 && estimate.stderr !== null && Number.isFinite(estimate.stderr)
      ? estimate.stderr
      : null;
  return {
    name: shape.name,
    value,
    formatted_value: formatMetricValue(value, shape.unit),
    direction: shape.direction,
    n: estimate.n,
    stderr,
    ci95: clip(confidenceInterval(value, stderr), shape.bounds ?? naturalBounds(shape.unit)),
    description: shape.description,
    unit: shape.unit,
    details,
  };
}

/**
 * The mean of a per-trial quantity with its error bar. Trials are averaged per task first (the
 * mean over epochs), then over tasks, so n is the number of tasks and the SE is the CLT SE over
 * per-task means — clustered (Miller eq. 4) when any task carries a cluster. With one trial per
 * task this is the plain mean and CLT SE over trials.
 */
export function meanOverTasks(
  input: MetricInput,
  trials: readonly TrialValue[],
  shape: MetricShape,
  details: Record<string, unknown> = {},
): MetricResult {
  const clusterOf = clusterLookup(input);
  const estimate = epochStandardError(trials, { clusterOf });
  const full = {
    ...details,
    trials: estimate.trials,
    tasks: estimate.n,
    epochs: input.epochs,
    stderr_method: estimate.clustered ? 'clustered' : 'clt_over_task_means',
    ...(estimate.clustered ? { clusters: estimate.clusters } : {}),
    // The residuals of a single cluster sum to zero: the clustered SE says nothing.
    ...(estimate.clustered && estimate.clusters < 2 && estimate.n >= 2
      ? { stderr_unavailable: 'all tasks are in one cluster' }
      : {}),
  };
  if (estimate.n === 0) return emptyResult(shape, full);
  return metricResult(shape, { value: estimate.mean, stderr: estimate.stderr, n: estimate.n }, full);
}
