import type { ExperimentStatus } from '../core/experiment.ts';
import type { Suite } from '../core/suite.ts';
import type { MetricRegistry } from '../metrics/registry.ts';
import { resumedTasks } from '../runner/resume-plan.ts';
import { aggregateStored } from '../runner/stored-aggregate.ts';
import type { ExperimentDocument } from '../store/documents.ts';
import type { QueueStore } from './trial-job.ts';

/** Trials in the experiment's plan. */
export function plannedTrials(experiment: ExperimentDocument): number {
  return experiment.suite.tasks.length * experiment.settings.epochs;
}

/** Records stored so far, by outcome, and in all. */
export async function storedTrials(
  store: QueueStore,
  experimentId: string,
): Promise<{ stored: number; byOutcome: Record<string, number> }> {
  const byOutcome = await store.outcomeCounts(experimentId);
  return { stored: Object.values(byOutcome).reduce((a, b) => a + b, 0), byOutcome };
}

/** The experiment's status from its summary row (no document read); undefined when it is gone. */
export async function experimentStatus(
  store: Pick<QueueStore, 'listExperiments'>,
  experimentId: string,
): Promise<ExperimentStatus | undefined> {
  const rows = await store.listExperiments({ idPrefix: experimentId });
  return rows.find((row) => row.id === experimentId)?.status;
}

/**
 * Computes metrics, scores and thresholds once, when every trial of the plan is stored (or, with
 * `interrupted`, for what is stored). Whoever sees the last commit calls it — a worker, `run`,
 * `runs watch` — and the row lock makes the first one do it: the others find the experiment no
 * longer `running` and change nothing. Returns whether this call finished it.
 */
export async function finishIfComplete(
  store: QueueStore,
  suite: Suite,
  experimentId: string,
  options: {
    readonly interrupted?: boolean;
    /** Where the suite's metric names resolve (the run's plugin set); the default set's when absent. */
    readonly metrics?: MetricRegistry;
    /**
     * The plan's trial count when the caller knows it (a worker read the experiment when it took
     * its first job): then no document is read until every trial is stored. Reading and checking
     * the document, suite included, after each of 10,000 trials cost more than the trial.
     */
    readonly planned?: number;
  } = {},
): Promise<boolean> {
  let planned = options.planned;
  if (planned === undefined) {
    const current = await store.getExperimentDocument(experimentId);
    if (current === undefined || current.status !== 'running') return false;
    planned = plannedTrials(current);
  }
  const { stored } = await storedTrials(store, experimentId);
  const complete = stored >= planned;
  if (!complete && options.interrupted !== true) return false;
  return store.updateExperimentLocked(experimentId, async (locked) => {
    if (locked.status !== 'running') return undefined;
    // The records a page at a time into the folds: a worker finishing 100,000 trials holds a page.
    const aggregate = await aggregateStored(store, experimentId, {
      suite,
      tasks: resumedTasks(suite, locked),
      epochs: locked.settings.epochs,
      registry: options.metrics,
    });
    return {
      status: complete ? 'completed' : 'interrupted',
      finished_at: new Date().toISOString(),
      metrics: aggregate.metrics,
      scores: aggregate.scores,
      ...(aggregate.outcome === undefined ? {} : { outcome: aggregate.outcome }),
      violations: aggregate.violations,
    };
  });
}
