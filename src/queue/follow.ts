import { setTimeout as sleep } from 'node:timers/promises';
import type { Suite } from '../core/suite.ts';
import type { MetricRegistry } from '../metrics/registry.ts';
import type { ExperimentDocument } from '../store/documents.ts';
import { experimentStatus, finishIfComplete, plannedTrials, storedTrials } from './finish.ts';
import { pruneFinishedJobs } from './prune-jobs.ts';
import { planJobIds, type QueueStore } from './trial-job.ts';
import type { TrialQueue } from './trial-queue.ts';

export interface QueueProgress {
  readonly experimentId: string;
  readonly status: ExperimentDocument['status'];
  readonly total: number;
  readonly done: number;
  readonly passed: number;
  readonly failed: number;
  readonly errored: number;
  readonly pending: number;
  /** Whether a job of the experiment waits, is due for a retry or is taken by a worker. */
  readonly jobsOpen: boolean;
  /** Seconds since following started. */
  readonly elapsed: number;
}

export interface FollowOptions {
  readonly store: QueueStore;
  readonly queue: TrialQueue;
  readonly experimentId: string;
  /** The suite, to finish the experiment if no worker did (the last one died after its commit). */
  readonly suite?: Suite;
  /** Where the suite's metric names resolve (the run's plugin set); the default set's when absent. */
  readonly metrics?: MetricRegistry;
  readonly onProgress?: (progress: QueueProgress) => void;
  readonly intervalMs?: number;
  /** Aborting it stops following (the workers go on). */
  readonly signal?: AbortSignal;
}

export interface Followed {
  readonly experiment: ExperimentDocument;
  /** Why the experiment stopped short, when its jobs ended without every trial stored. */
  readonly failure?: string;
}

/**
 * Follows a queued experiment until it is no longer running: every trial stored and the
 * experiment finished, its jobs all ended without that (failed for good, cancelled), or `signal`.
 */
export async function followExperiment(options: FollowOptions): Promise<Followed | undefined> {
  const started = performance.now();
  // The document (suite included: parsed and checked, tens of ms at thousands of tasks) is read
  // once for the plan; each poll reads only the experiment's status row.
  const planned = await options.store.getExperimentDocument(options.experimentId);
  if (planned === undefined) return undefined;
  const ids = planJobIds(planned);
  const total = plannedTrials(planned);
  while (options.signal?.aborted !== true) {
    const status = await experimentStatus(options.store, planned.id);
    if (status === undefined) return undefined;
    const { stored, byOutcome } = await storedTrials(options.store, planned.id);
    const jobsOpen = await options.queue.hasOpenJobs(planned.id);
    options.onProgress?.({
      experimentId: planned.id,
      status,
      total,
      done: stored,
      passed: byOutcome['pass'] ?? 0,
      failed: byOutcome['fail'] ?? 0,
      errored: byOutcome['error'] ?? 0,
      pending: byOutcome['pending'] ?? 0,
      jobsOpen,
      elapsed: (performance.now() - started) / 1000,
    });
    const complete = stored >= total;
    // Every trial can have a record while some job is still taken or due for a retry (its worker
    // died after committing, before completing it): the retry counts an attempt on that record,
    // so the experiment is finished now but reported only when its jobs end.
    const waiting = complete && jobsOpen;
    if (!waiting && (status !== 'running' || complete || !jobsOpen)) {
      const followed = await settle(options, planned, { stored, total, ids });
      // Finished with no job open: its ended jobs go (again, if a worker did it: nothing is found).
      // The last open job may have ended without a worker's completion (it expired a last time,
      // or failed), so no worker saw the experiment drained.
      if (followed.experiment.status === 'completed')
        await pruneFinishedJobs(options.store, options.queue, planned).catch(() => 0);
      return followed;
    }
    if (waiting && status === 'running') await settle(options, planned, { stored, total, ids });
    await sleep(options.intervalMs ?? 500, undefined, { signal: options.signal }).catch(() => undefined);
  }
  return undefined;
}

/**
 * The experiment as its followers leave it: finished (metrics, scores, thresholds) if no worker
 * did, `interrupted` with the queue's reason when trials have no job left.
 */
async function settle(
  options: FollowOptions,
  planned: ExperimentDocument,
  counts: { readonly stored: number; readonly total: number; readonly ids: readonly string[] },
): Promise<Followed> {
  const experiment = (await options.store.getExperimentDocument(planned.id)) ?? planned;
  if (experiment.status !== 'running' || options.suite === undefined) return { experiment };
  const interrupted = counts.stored < counts.total;
  await finishIfComplete(options.store, options.suite, experiment.id, {
    interrupted,
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
  });
  const finished = (await options.store.getExperimentDocument(experiment.id)) ?? experiment;
  if (!interrupted) return { experiment: finished };
  const reason = await options.queue.lastFailure(counts.ids);
  return {
    experiment: finished,
    failure: reason ?? `${counts.total - counts.stored} trials have no job left in the queue`,
  };
}

/**
 * Stops an experiment's outstanding jobs and marks it interrupted; `run --resume ID --queue …`
 * enqueues the rest again. A worker holding a cancelled job sees it within a second or two
 * (worker.ts): it stops the trial and stores nothing of it, or never starts it. Returns the jobs
 * cancelled.
 */
export async function cancelExperiment(
  store: QueueStore,
  queue: TrialQueue,
  experimentId: string,
): Promise<{ readonly cancelled: number; readonly wasRunning: boolean }> {
  const experiment = await store.getExperimentDocument(experimentId);
  if (experiment === undefined) return { cancelled: 0, wasRunning: false };
  // Marked first: a `run --queue` still enqueueing sees it after its last job is in and cancels
  // the jobs this call did not find (enqueue.ts).
  const wasRunning = await store.updateExperimentLocked(experimentId, (locked) =>
    locked.status === 'running'
      ? { status: 'interrupted', finished_at: new Date().toISOString() }
      : undefined,
  );
  const cancelled = await queue.cancel(planJobIds(experiment));
  return { cancelled, wasRunning };
}
