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
import type { ExperimentDocument } from '../store/documents.ts';
import type { ExperimentStore } from '../store/types.ts';
import { captureEnvironment, newExperimentId } from './environment.ts';
import { filterTasks } from './plan.ts';
import { resumedSettings, resumedTasks, retriedSettings } from './resume-plan.ts';
import { type ContinueMode, StoredTrials } from './stored-trials.ts';

export interface ExperimentPlan {
  readonly experiment: Experiment;
  /**
   * What the store holds of the experiment (a resume or a retry; nothing for a new one): which
   * trials are finished and do not run again, and (with --retry-errors) which run again.
   */
  readonly stored: StoredTrials;
  readonly settings: RunSettings;
  readonly tasks: Task[];
  readonly resumed: boolean;
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

/**
 * The stored experiment a resume or a retry continues (its document: the records are read a page
 * at a time later); it must have run the same suite file.
 */
async function storedExperiment(
  options: OpenOptions,
  store: ExperimentStore | undefined,
  id: string,
  flag: string,
): Promise<{ store: ExperimentStore; document: ExperimentDocument }> {
  if (store === undefined) throw new HarnessEvalError('usage', `${flag} needs a store (not --no-store)`);
  const stored = await store.getExperimentDocument(id);
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
  return { store, document: stored };
}

/**
 * A stored experiment to continue: the same suite file, its stored plan, and its stored trials —
 * with `resume` the missing ones run, with `retry` the ones that errored outside the harness's
 * fault (their new records replace the old ones).
 */
async function continued(options: OpenOptions, id: string, mode: ContinueMode): Promise<ExperimentPlan> {
  const flag = mode === 'resume' ? '--resume' : '--retry-errors';
  const { store, document } = await storedExperiment(options, options.store, id, flag);
  const given = options.settings ?? {};
  const settings = mode === 'resume' ? resumedSettings(document, given) : retriedSettings(document, given);
  const tasks = resumedTasks(options.suite, document);
  const stored = await StoredTrials.read(store, document.id, {
    taskIds: tasks.map((t) => t.id),
    epochs: settings.epochs,
    mode,
  });
  return {
    experiment: { ...document, settings, status: 'running', records: [] },
    stored,
    settings,
    tasks,
    resumed: true,
  };
}

/**
 * The experiment a run writes — a new one, or (with `resume`) the stored one, to continue — and
 * its plan. Nothing is written yet: a run that fails to start leaves no experiment behind.
 */
export async function planExperiment(options: OpenOptions): Promise<ExperimentPlan> {
  if (options.resume !== undefined && options.retryErrors !== undefined)
    throw new HarnessEvalError('usage', '--resume and --retry-errors cannot be combined');
  if (options.resume !== undefined) return continued(options, options.resume, 'resume');
  if (options.retryErrors !== undefined) return continued(options, options.retryErrors, 'retry');
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
  const stored = StoredTrials.none(
    tasks.map((t) => t.id),
    settings.epochs,
  );
  return { experiment, stored, settings, tasks, resumed: false };
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
