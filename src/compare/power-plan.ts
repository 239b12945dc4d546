import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import { groupBy, varianceComponents } from '../stats/clustered.ts';
import { mean, pearsonCorrelation, variance } from '../stats/descriptive.ts';
import {
  type PowerPlan,
  pairedVarianceComponents,
  pairedVarianceFromBaseline,
  planPower,
} from '../stats/significance.ts';
import { metricForResult, metricInput } from './per-task.ts';
import { planBinary } from './power-binary.ts';

/** Where the variance of a paired difference came from, and what plan it gives. */
export interface PowerReport {
  readonly metric: string;
  /** `baseline`: one experiment; `pair`: a baseline and a candidate run (`--from`); `sd`: given. */
  readonly source: 'baseline' | 'pair' | 'sd';
  /** The power calculation: the paired t test (noncentral t), or exact McNemar for one pass/fail verdict per task. */
  readonly method: 't' | 'mcnemar_exact';
  readonly baseline_id?: string | undefined;
  /** The experiment paired with the baseline to estimate the correlation (`--from`). */
  readonly from_id?: string | undefined;
  /** Of one experiment's per-task scores (baseline only). */
  readonly baseline_variance?:
    | { readonly between: number; readonly within: number; readonly tasks: number; readonly epochs: number }
    | undefined;
  /** Of the paired difference B - A: ω² (between tasks) and σ²_A + σ²_B (within a task). */
  readonly paired_variance: { readonly between: number; readonly within: number };
  readonly correlation: number;
  /** `assumed` (the 0 default), `given` (--correlation), `observed` (from --from). */
  readonly correlation_source: 'assumed' | 'given' | 'observed';
  /** For `mcnemar_exact`: the baseline pass rate and the discordance the plan assumes. */
  readonly binary?:
    | { readonly baseline_rate: number; readonly p10: number; readonly p01: number }
    | undefined;
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
  /** Epochs per task in the planned comparison; default the epochs the baseline ran. */
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
  base: Omit<PowerReport, 'plan' | 'effect' | 'alpha' | 'power' | 'tasks_requested' | 'method'>,
  request: PowerRequest,
  defaultTasks: number | undefined,
  defaultEpochs: number,
): PowerReport {
  const alpha = request.alpha ?? 0.05;
  const power = request.power ?? 0.8;
  const { between, within } = base.paired_variance;
  const epochs = request.epochs ?? defaultEpochs;
  if (!(between + within / epochs > 0)) {
    throw new HarnessEvalError(
      'invalid_input',
      `${base.metric} does not vary in ${base.baseline_id ?? 'the baseline'} (the same value on every task and epoch): a paired difference has no variance to plan from. Run more tasks or epochs, or give --sd`,
    );
  }
  // Without an effect, report what the baseline's own number of tasks can detect.
  const tasks = request.tasks ?? (request.effect === undefined ? defaultTasks : undefined);
  const plan = planPower({
    between,
    within,
    alpha,
    power,
    epochs,
    ...(request.effect === undefined ? {} : { effect: request.effect }),
    ...(tasks === undefined ? {} : { tasks }),
  });
  const notes = [...base.notes];
  if (request.effect !== undefined && request.tasks !== undefined && plan.epochs_needed === null) {
    notes.push(
      `no number of epochs lets ${request.tasks} tasks detect ${request.effect}: add tasks (between-task variance dominates)`,
    );
  }
  return {
    ...base,
    method: 't',
    notes,
    alpha,
    power,
    effect: request.effect ?? null,
    tasks_requested: request.tasks ?? null,
    plan,
  };
}

function isVerdicts(perTask: ReadonlyMap<string, readonly number[]>): boolean {
  return [...perTask.values()].every((scores) => scores.length === 1 && (scores[0] === 0 || scores[0] === 1));
}

function taskMeansOf(perTask: ReadonlyMap<string, readonly number[]>): Map<string, number> {
  return new Map([...perTask].map(([task, scores]) => [task, mean(scores) ?? 0]));
}

/**
 * Plans a comparison from a baseline experiment (Miller 2024, section 5, with t / exact power):
 * the variance components of its per-task epoch values turned into the variance of a paired
 * difference — from the observed pair when `from` (a candidate run on the same tasks) is given,
 * else assuming the candidate varies alike and correlates by `correlation` (default 0:
 * conservative). One pass/fail verdict per task (one epoch) is planned with exact McNemar power.
 */
export function powerFromBaseline(
  baseline: Experiment,
  options: PowerRequest & {
    readonly metric?: string;
    readonly correlation?: number;
    readonly from?: Experiment;
  },
): PowerReport {
  const metric = options.metric ?? 'success_rate';
  const perTask = perEpochValues(baseline, metric);
  if (perTask.size < 2) {
    throw new HarnessEvalError(
      'invalid_input',
      `experiment ${baseline.id} has fewer than two tasks with a ${metric} value`,
    );
  }
  const fromTasks = options.from ? perEpochValues(options.from, metric) : undefined;
  const runEpochs = Math.max(1, baseline.settings.epochs);
  const epochs = options.epochs ?? runEpochs;
  // Only a rate is a pass/fail verdict per task: a count of 0 or 1 is not.
  const rate = metricForResult(metric)?.calculate(metricInput(baseline)).unit === 'ratio';
  if (rate && isVerdicts(perTask) && epochs === 1 && (fromTasks === undefined || isVerdicts(fromTasks))) {
    return planBinary(baseline, perTask, { ...options, metric, epochs, fromTasks });
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
  if (options.from !== undefined && fromTasks !== undefined) {
    const observed = pairedVarianceComponents(perTask, fromTasks);
    if (observed === null)
      throw new HarnessEvalError(
        'invalid_input',
        `${baseline.id} and ${options.from.id} share fewer than two tasks`,
      );
    const a = taskMeansOf(perTask);
    const b = taskMeansOf(fromTasks);
    const shared = [...a.keys()].filter((t) => b.has(t));
    const rho = pearsonCorrelation(
      shared.map((t) => a.get(t)!),
      shared.map((t) => b.get(t)!),
    );
    notes.push(`variance of the difference observed over the ${observed.tasks} tasks both ran`);
    return finishPlan(
      {
        metric,
        source: 'pair',
        baseline_id: baseline.id,
        from_id: options.from.id,
        baseline_variance: components,
        paired_variance: { between: observed.between, within: observed.within },
        correlation: rho ?? 0,
        correlation_source: 'observed',
        notes,
      },
      options,
      observed.tasks,
      runEpochs,
    );
  }
  const correlation = options.correlation ?? 0;
  const paired = pairedVarianceFromBaseline(components, correlation);
  if (options.correlation === undefined)
    notes.push(
      'assumes no correlation between A and B across tasks (conservative; pass --correlation or --from)',
    );
  return finishPlan(
    {
      metric,
      source: 'baseline',
      baseline_id: baseline.id,
      baseline_variance: components,
      paired_variance: paired,
      correlation,
      correlation_source: options.correlation === undefined ? 'assumed' : 'given',
      notes,
    },
    options,
    components.tasks,
    runEpochs,
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
      correlation_source: 'assumed',
      notes: ['a given SD has no within-task part: the plan does not change with epochs'],
    },
    options,
    undefined,
    1,
  );
}
