import { dirname } from 'node:path';
import { HarnessEvalError } from '../core/errors.ts';
import {
  type Experiment,
  type MetricResult,
  type RunSettings,
  RunSettingsSchema,
  type ThresholdViolation,
} from '../core/experiment.ts';
import type { MetricRef } from '../core/plugin-ref.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { Suite } from '../core/suite.ts';
import type { Task } from '../core/task.ts';
import type { MetricRegistry } from '../metrics/registry.ts';
import { aggregateExperiment } from '../scoring/experiment-aggregate.ts';
import type { ExperimentStream } from '../scoring/experiment-stream.ts';
import type { ExperimentStore } from '../store/types.ts';
import { captureEnvironment, newExperimentId } from './environment.ts';
import { filterTasks, trialKey } from './plan.ts';
import {
  finishedRecords,
  isRetryableError,
  resumedSettings,
  resumedTasks,
  retriedSettings,
} from './resume-plan.ts';

export interface ExperimentPlan {
  readonly experiment: Experiment;
  /** Trials already finished (a resume): they do not run again. */
  readonly done: RunRecord[];
  readonly settings: RunSettings;
  readonly tasks: Task[];
  readonly resumed: boolean;
  /** With --retry-errors: the keys of the trials to run again (nothing else runs). */
  readonly retry?: ReadonlySet<string>;
}

export interface OpenOptions {
  readonly suite: Suite;
  readonly harness: Experiment['harness'];
  readonly settings?: Partial<RunSettings> | undefined;
  readonly store?: ExperimentStore | undefined;
  readonly resume?: string | undefined;
  readonly retryErrors?: string | undefined;
  readonly experimentId?: string | undefined;
  readonly name?: string | undefined;
}

export function suiteDirOf(suite: Suite): string {
  return suite.source === undefined ? process.cwd() : dirname(suite.source.file);
}

/** The stored experiment a resume or a retry continues; it must have run the same suite file. */
async function storedExperiment(
  options: OpenOptions,
  store: ExperimentStore | undefined,
  id: string,
  flag: string,
): Promise<Experiment> {
  if (store === undefined) throw new HarnessEvalError('usage', `${flag} needs a store (not --no-store)`);
  const stored = await store.getExperiment(id);
  if (stored === undefined) throw new HarnessEvalError('not_found', `no experiment ${id} in the store`);
  if (
    stored.suite.hash !== undefined &&
    options.suite.source?.hash !== undefined &&
    stored.suite.hash !== options.suite.source.hash
  ) {
    throw new HarnessEvalError(
      'invalid_input',
      `experiment ${stored.id} ran a different version of suite ${stored.suite.id}; ${flag} needs the same file`,
    );
  }
  return stored;
}

/** A stored experiment to continue: the same suite file, its stored plan, its finished trials. */
async function resumed(options: OpenOptions, id: string): Promise<ExperimentPlan> {
  const stored = await storedExperiment(options, options.store, id, '--resume');
  const settings = resumedSettings(stored, options.settings ?? {});
  const tasks = resumedTasks(options.suite, stored);
  return {
    experiment: { ...stored, settings, status: 'running', records: [] },
    done: finishedRecords(stored.records),
    settings,
    tasks,
    resumed: true,
  };
}

/** A stored experiment whose errored trials (outside the harness's fault) run again. */
async function retried(options: OpenOptions, id: string): Promise<ExperimentPlan> {
  const stored = await storedExperiment(options, options.store, id, '--retry-errors');
  const settings = retriedSettings(stored, options.settings ?? {});
  const records = finishedRecords(stored.records);
  return {
    experiment: { ...stored, settings, status: 'running', records: [] },
    done: records.filter((r) => !isRetryableError(r)),
    settings,
    tasks: resumedTasks(options.suite, stored),
    resumed: true,
    retry: new Set(records.filter(isRetryableError).map((r) => trialKey(r.task_id, r.epoch))),
  };
}

/**
 * The experiment a run writes — a new one, or (with `resume`) the stored one, to continue — and
 * its plan. Nothing is written yet: a run that fails to start leaves no experiment behind.
 */
export async function planExperiment(options: OpenOptions): Promise<ExperimentPlan> {
  if (options.resume !== undefined && options.retryErrors !== undefined)
    throw new HarnessEvalError('usage', '--resume and --retry-errors cannot be combined');
  if (options.resume !== undefined) return resumed(options, options.resume);
  if (options.retryErrors !== undefined) return retried(options, options.retryErrors);
  const settings = RunSettingsSchema.parse({ ...options.settings });
  const tasks = filterTasks(options.suite.tasks, settings.filters);
  if (tasks.length === 0) {
    throw new HarnessEvalError('invalid_input', 'no task matches the filters', {
      data: { filters: settings.filters },
    });
  }
  const experiment: Experiment = {
    schema_version: 1,
    id: options.experimentId ?? newExperimentId(),
    ...(options.name === undefined ? {} : { name: options.name }),
    suite: {
      id: options.suite.id,
      ...(options.suite.name === undefined ? {} : { name: options.suite.name }),
      ...(options.suite.source === undefined
        ? {}
        : {
            file: options.suite.source.file,
            format: options.suite.source.format,
            hash: options.suite.source.hash,
          }),
      tasks: tasks.map((t) => ({
        id: t.id,
        weight: t.weight,
        ...(t.cluster === undefined ? {} : { cluster: t.cluster }),
        ...((t.domain ?? options.suite.domain) === undefined
          ? {}
          : { domain: t.domain ?? options.suite.domain }),
      })),
    },
    harness: options.harness,
    status: 'running',
    created_at: new Date().toISOString(),
    settings,
    environment: captureEnvironment(suiteDirOf(options.suite)),
    records: [],
    metrics: [],
    scores: {},
    violations: [],
    metadata: {},
  };
  return { experiment, done: [], settings, tasks, resumed: false };
}

export interface FinishOptions {
  readonly suite: Suite;
  readonly metrics?: readonly MetricRef[] | undefined;
  /** Where the metric names resolve (the run's plugin set). */
  readonly metricRegistry?: MetricRegistry | undefined;
  readonly store?: ExperimentStore | undefined;
  /** The metrics folded as the records finished: `records` then holds none of them. */
  readonly stream?: ExperimentStream | undefined;
}

/** Aggregates the records and stores the result; `interrupted` when trials of the plan did not run. */
export async function finishExperiment(
  experiment: Experiment,
  records: RunRecord[],
  tasks: readonly Task[],
  settings: RunSettings,
  interrupted: boolean,
  options: FinishOptions,
): Promise<Experiment> {
  const order = new Map(tasks.map((t, i) => [t.id, i]));
  records.sort((a, b) => (order.get(a.task_id) ?? 0) - (order.get(b.task_id) ?? 0) || a.epoch - b.epoch);
  const aggregate: {
    metrics: MetricResult[];
    scores: Record<string, number>;
    outcome: Experiment['outcome'];
    violations: ThresholdViolation[];
  } =
    options.stream?.aggregate() ??
    aggregateExperiment({
      suite: options.suite,
      records,
      tasks,
      epochs: settings.epochs,
      metrics: options.metrics,
      registry: options.metricRegistry,
    });
  const finished: Experiment = {
    ...experiment,
    status: interrupted ? 'interrupted' : 'completed',
    finished_at: new Date().toISOString(),
    records,
    ...aggregate,
  };
  await options.store?.updateExperiment(experiment.id, {
    status: finished.status,
    finished_at: finished.finished_at!,
    metrics: finished.metrics,
    scores: finished.scores,
    ...(finished.outcome === undefined ? {} : { outcome: finished.outcome }),
    violations: finished.violations,
  });
  return finished;
}
