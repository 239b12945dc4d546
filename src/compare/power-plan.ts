import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import { groupBy, varianceComponents } from '../stats/clustered.ts';
import { variance } from '../stats/descriptive.ts';
import { type PowerPlan, pairedVarianceFromBaseline, planPower } from '../stats/significance.ts';
import { metricForResult, metricInput } from './per-task.ts';

/** Where the variance of a paired difference came from. */
export interface PowerReport {
  readonly metric: string;
  readonly source: 'baseline' | 'sd';
  readonly baseline_id?: string | undefined;
  /** Of one experiment's per-task scores (baseline only). */
  readonly baseline_variance?:
    | { readonly between: number; readonly within: number; readonly tasks: number; readonly epochs: number }
    | undefined;
  /** Of the paired difference B - A: ω² (between tasks) and σ²_A + σ²_B (within a task). */
  readonly paired_variance: { readonly between: number; readonly within: number };
  readonly correlation: number;
  readonly alpha: number;
  readonly power: number;
  readonly effect: number | null;
  /** The task count asked about (--tasks); null when the plan says how many are needed. */
  readonly tasks_requested: number | null;
  readonly plan: PowerPlan;
  readonly notes: readonly string[];
}

export interface PowerRequest {
  /** Effect to detect, in the metric's unit (0.05 = five points of a rate). */
  readonly effect?: number | undefined;
  readonly tasks?: number | undefined;
  readonly epochs?: number | undefined;
  readonly alpha?: number | undefined;
  readonly power?: number | undefined;
}

/**
 * Each task's per-epoch values of a metric: the metric's per-task value over one record at a
 * time (the metrics are means of per-trial values, so this is the trial's own value).
 */
export function perEpochValues(experiment: Experiment, metricName: string): Map<string, number[]> {
  const metric = metricForResult(metricName);
  if (metric?.perTask === undefined) {
    throw new HarnessEvalError(
      'usage',
      `metric "${metricName}" has no per-task values, so its variance cannot be estimated (try success_rate, accuracy or overall_score)`,
    );
  }
  const values = new Map<string, number[]>();
  for (const [task, records] of groupBy(experiment.records, (r) => r.task_id)) {
    const scores = records.flatMap((record) => {
      const v = metric.perTask?.(metricInput(experiment, [record])).get(task);
      return v === undefined ? [] : [v];
    });
    if (scores.length > 0) values.set(task, scores);
  }
  return values;
}

function finishPlan(
  base: Omit<PowerReport, 'plan' | 'effect' | 'alpha' | 'power' | 'tasks_requested'>,
  request: PowerRequest,
  defaultTasks: number | undefined,
): PowerReport {
  const alpha = request.alpha ?? 0.05;
  const power = request.power ?? 0.8;
  // Without an effect, report what the baseline's own number of tasks can detect.
  const tasks = request.tasks ?? (request.effect === undefined ? defaultTasks : undefined);
  const plan = planPower({
    ...base.paired_variance,
    alpha,
    power,
    ...(request.effect === undefined ? {} : { effect: request.effect }),
    ...(tasks === undefined ? {} : { tasks }),
    ...(request.epochs === undefined ? {} : { epochs: request.epochs }),
  });
  const notes = [...base.notes];
  if (request.effect !== undefined && request.tasks !== undefined && plan.epochs_needed === null) {
    notes.push(
      `no number of epochs lets ${request.tasks} tasks detect ${request.effect}: add tasks (between-task variance dominates)`,
    );
  }
  return {
    ...base,
    notes,
    alpha,
    power,
    effect: request.effect ?? null,
    tasks_requested: request.tasks ?? null,
    plan,
  };
}

/**
 * Plans a comparison from one baseline experiment: variance components of its per-task epoch
 * values (Miller 2024, section 5), turned into the variance of a paired difference assuming the
 * candidate varies alike and correlates by `correlation` across tasks (0 = conservative).
 */
export function powerFromBaseline(
  baseline: Experiment,
  options: PowerRequest & { readonly metric?: string; readonly correlation?: number },
): PowerReport {
  const metric = options.metric ?? 'success_rate';
  const perTask = perEpochValues(baseline, metric);
  if (perTask.size < 2) {
    throw new HarnessEvalError(
      'invalid_input',
      `experiment ${baseline.id} has fewer than two tasks with a ${metric} value`,
    );
  }
  const notes: string[] = [];
  let components = varianceComponents([...perTask.values()]);
  if (components === null) {
    // One epoch: within-task noise cannot be told apart from task difficulty; all of it counts as between.
    const means = [...perTask.values()].map((scores) => scores[0] ?? 0);
    components = { between: variance(means) ?? 0, within: 0, tasks: means.length, epochs: 1 };
    notes.push(
      'the baseline ran one epoch: within-task variance is unknown, so more epochs are assumed not to help',
    );
  }
  const correlation = options.correlation ?? 0;
  const paired = pairedVarianceFromBaseline(components, correlation);
  if (correlation === 0)
    notes.push('assumes no correlation between A and B across tasks (conservative; pass --correlation)');
  return finishPlan(
    {
      metric,
      source: 'baseline',
      baseline_id: baseline.id,
      baseline_variance: components,
      paired_variance: paired,
      correlation,
      notes,
    },
    options,
    components.tasks,
  );
}

/** Plans from a given SD of the per-task paired differences (all of it between tasks). */
export function powerFromSd(sd: number, options: PowerRequest & { readonly metric?: string }): PowerReport {
  if (!(sd > 0) || !Number.isFinite(sd))
    throw new HarnessEvalError('usage', `--sd must be a positive number, got ${sd}`);
  return finishPlan(
    {
      metric: options.metric ?? 'success_rate',
      source: 'sd',
      paired_variance: { between: sd * sd, within: 0 },
      correlation: 0,
      notes: ['a given SD has no within-task part: the plan does not change with epochs'],
    },
    options,
    undefined,
  );
}
