import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { RunRecord } from '../core/run-record.ts';
import { isValidated, markValidated } from '../core/validated-record.ts';
import { sizeMatchPool } from '../evaluators/match-pool.ts';
import type { PluginSet } from '../plugins/set.ts';
import { recordingListener } from '../runner/child-records.ts';
import { TrialDeadlines } from '../runner/deadline.ts';
import { trialKey } from '../runner/plan.ts';
import { runTrial } from '../runner/trial.ts';
import { withChildGroupListener } from '../util/child-groups.ts';
import { ExperimentCache } from './experiment-cache.ts';
import { finishIfComplete, plannedTrials } from './finish.ts';
import { JobCompleter } from './job-completer.ts';
import { openQueuedExperiment, type QueuedExperiment, type SuiteLoader } from './queued-experiment.ts';
import { SharedRateLimiter } from './shared-rate-limiter.ts';
import { type QueueStore, TrialJobSchema } from './trial-job.ts';
import type { TakenJob, TrialQueue } from './trial-queue.ts';

/** A refused job waits this long before any worker takes it again. */
const REFUSED_DELAY_SECONDS = 10;

/** What a worker reports; the CLI prints it. */
export type WorkerEvent =
  | {
      readonly type: 'trial_start';
      readonly experimentId: string;
      readonly key: string;
      readonly retry: number;
    }
  | {
      readonly type: 'trial_stored';
      readonly experimentId: string;
      readonly record: RunRecord;
      /** False when the trial already had a record (a retried job whose first worker committed). */
      readonly first: boolean;
    }
  /** The job went back to the queue: the worker refused it, or could not run or store it. */
  | { readonly type: 'job_failed'; readonly experimentId: string | undefined; readonly error: string }
  | { readonly type: 'experiment_finished'; readonly experimentId: string }
  /** `runs cancel` stopped the experiment: its trials here were stopped, and none of it starts. */
  | { readonly type: 'experiment_cancelled'; readonly experimentId: string };

export interface WorkerOptions {
  readonly store: QueueStore;
  readonly queue: TrialQueue;
  /** Trials run at once. */
  readonly concurrency: number;
  /** This worker's tags: it takes a job only when it has every tag the job asks for. */
  readonly tags?: readonly string[];
  /** The checkout's root: queue plans name the suite and harness relative to it. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly loadSuite: SuiteLoader;
  /**
   * The plugins every experiment starts with (the CLI's `--plugin` modules); each experiment
   * loads its suite's `plugins:` into a copy of its own. The default set when absent.
   */
  readonly plugins?: PluginSet;
  /** Aborting it stops taking jobs; the trials in flight finish and are stored. */
  readonly signal?: AbortSignal;
  /** Aborting it abandons the trials in flight: their jobs go back to the queue, nothing is stored. */
  readonly stopNow?: AbortSignal;
  readonly onEvent?: (event: WorkerEvent) => void;
  /** How long an idle slot waits before asking the queue again (default 500 ms). */
  readonly pollMs?: number;
  /** At most this many experiments' suites, agents and gateways stay open between their jobs (default 8). */
  readonly openExperiments?: number;
  /** How often expired jobs (their worker died) are put back in the queue (default 2,000 ms). */
  readonly expireEveryMs?: number;
  /** How often the worker asks whether the jobs it holds were cancelled (default 1,000 ms). */
  readonly cancelCheckEveryMs?: number;
}

/**
 * Takes trial jobs until `signal` aborts: runs each trial as the local runner does, commits its
 * record (the first record of a trial wins), and only then completes the job. A worker killed
 * before the commit leaves its job taken; the job expires and another worker runs the trial again.
 */
export async function runWorker(options: WorkerOptions): Promise<{ readonly stored: number }> {
  const emit = (event: WorkerEvent) => options.onEvent?.(event);
  const here = { host: hostname(), pid: process.pid };
  const rateLimiter = new SharedRateLimiter(options.queue.db, options.queue.schema);
  let stored = 0;
  const stopping = () => options.signal?.aborted === true || options.stopNow?.aborted === true;
  // Each experiment's trials have their own signals, so that a cancel stops only that experiment's.
  const openDeadlines = new Set<TrialDeadlines>();
  const stoppedNow = () => new Error('the worker was stopped');
  const onStopNow = () => {
    for (const deadlines of openDeadlines) deadlines.abortAll(stoppedNow());
  };
  options.stopNow?.addEventListener('abort', onStopNow, { once: true });
  sizeMatchPool(options.concurrency);

  // Built once per experiment and shared by its jobs (bounded; see experiment-cache.ts).
  const experiments = new ExperimentCache<QueuedExperiment>(async (id) => {
    const deadlines = new TrialDeadlines();
    if (options.stopNow?.aborted === true) deadlines.abortAll(stoppedNow());
    openDeadlines.add(deadlines);
    try {
      const queued = await openQueuedExperiment({
        store: options.store,
        experimentId: id,
        cwd: options.cwd,
        env: options.env,
        loadSuite: options.loadSuite,
        ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
        deadlines,
        emit: async () => {},
        rateLimiter,
      });
      const close = () => queued.close().finally(() => openDeadlines.delete(deadlines));
      return { ...queued, close };
    } catch (error) {
      openDeadlines.delete(deadlines);
      throw error;
    }
  }, options.openExperiments);

  /** The jobs this worker holds (taken, not ended), by id: their experiment. */
  const held = new Map<string, string>();
  /** Held jobs found cancelled: none of their trials starts, and a stopped one is not put back. */
  const cancelled = new Set<string>();
  // A cancel from any machine shows in the jobs' state: the worker looks at the jobs it holds (one
  // query for all of them), stops that experiment's trials here and forgets its opened state.
  const checkCancelled = async () => {
    if (held.size === 0) return;
    const found = await options.queue.cancelledAmong([...held.keys()]);
    const experimentIds = new Set<string>();
    for (const jobId of found) {
      if (cancelled.has(jobId) || !held.has(jobId)) continue;
      cancelled.add(jobId);
      experimentIds.add(held.get(jobId)!);
    }
    for (const experimentId of experimentIds) {
      const reason = new Error(`experiment ${experimentId} was cancelled`);
      experiments.drop(experimentId, (queued) => queued.deadlines.abortAll(reason));
      emit({ type: 'experiment_cancelled', experimentId });
    }
  };

  const completer = new JobCompleter(options.queue);
  /** Completions and finishing checks still going on after their trial's slot was freed. */
  const settling = new Set<Promise<void>>();

  // After the commit: the job completes in the next batch, and the slot takes another job meanwhile.
  const completeJob = (jobId: string, queued: QueuedExperiment) => {
    const experimentId = queued.experiment.id;
    const settle = completer
      .complete({ jobId, experimentId })
      .then(async (drained) => {
        // No job of the experiment waits or runs: the stored records say whether it is complete.
        if (!drained) return;
        const planned = plannedTrials(queued.experiment);
        const metrics = queued.plugins.metrics;
        if (await finishIfComplete(options.store, queued.suite, experimentId, { metrics, planned })) {
          // Finished: no job of it is left to run here, so its agent and gateway need not stay open.
          experiments.drop(experimentId);
          emit({ type: 'experiment_finished', experimentId });
        }
      })
      .catch((error: unknown) => {
        // The record is stored; the job stays taken, expires and the trial runs again (a counted retry).
        emit({ type: 'job_failed', experimentId, error: errorMessage(error) });
      })
      .finally(() => settling.delete(settle));
    settling.add(settle);
  };

  const handle = async (job: TakenJob) => {
    const parsed = TrialJobSchema.safeParse(job.data);
    if (!parsed.success) {
      await options.queue.fail(job.id, 'not a trial job').catch(() => undefined);
      return emit({ type: 'job_failed', experimentId: undefined, error: 'not a trial job' });
    }
    const { experiment_id: experimentId, task_id: taskId, epoch } = parsed.data;
    held.set(job.id, experimentId);
    try {
      await experiments.use(experimentId, (queued) => runJob(job, queued, taskId, epoch));
    } catch (error) {
      if (cancelled.has(job.id)) return;
      // A refusal (this checkout has another version of the suite) leaves the job to other workers.
      const refused = HarnessEvalError.is(error) && error.code === 'invalid_input';
      const back = refused
        ? options.queue.release(job.id, REFUSED_DELAY_SECONDS)
        : options.queue.fail(job.id, errorMessage(error));
      await back.catch(() => undefined);
      emit({ type: 'job_failed', experimentId, error: errorMessage(error) });
    } finally {
      held.delete(job.id);
      cancelled.delete(job.id);
    }
  };

  const runJob = async (job: TakenJob, queued: QueuedExperiment, taskId: string, epoch: number) => {
    const experimentId = queued.experiment.id;
    const taskIndex = queued.tasks.findIndex((t) => t.id === taskId);
    const task = queued.tasks[taskIndex];
    if (task === undefined) {
      // The stored experiment may have changed since it was opened here: the next job reads it again.
      experiments.drop(experimentId);
      throw new Error(`experiment ${experimentId} has no task ${taskId}`);
    }
    // Taken before the cancel and waiting (for the experiment to open) when the worker saw it.
    if (cancelled.has(job.id)) return;
    const key = trialKey(taskId, epoch);
    emit({ type: 'trial_start', experimentId, key, retry: job.retryCount });
    const recorder = recordingListener(options.store, experimentId);
    const record = await withChildGroupListener(recorder, () =>
      runTrial({ task, taskIndex, epoch, key }, queued.setup),
    );
    await recorder.flush();
    if (record === undefined) {
      // Stopped before it had a result: not a result of the harness. Cancelled, it stays so (a
      // resume runs it); else another worker runs it.
      if (!cancelled.has(job.id)) await options.queue.fail(job.id, 'the worker was stopped during the trial');
      return;
    }
    // A job taken again after its worker vanished is one more attempt at the trial.
    // Which machine and process ran it goes with the record (and the retry into `attempts`).
    const counted = {
      ...record,
      attempts: record.attempts + job.retryCount,
      metadata: { ...record.metadata, worker: here },
    };
    // Still a valid record (a positive attempt count, one more metadata key) when the runner's
    // parse passed: marked so, the store does not parse it a second time (half the worker's zod time).
    if (isValidated(record)) markValidated(counted);
    const first = await options.store.appendRecordOnce(experimentId, counted);
    // Stored already by a take of this job whose worker died before completing it: the record
    // stays the first one, and counts this attempt too.
    if (!first && job.retryCount > 0)
      await options.store.countAttempts({ experimentId, taskId, epoch, attempts: counted.attempts });
    // The record is committed before the job completes: a kill in between only repeats the trial.
    completeJob(job.id, queued);
    stored += first ? 1 : 0;
    emit({ type: 'trial_stored', experimentId, record: counted, first });
  };

  // One taker fills every free slot with one take: slots freed while a take is out go in the next.
  let free = options.concurrency;
  let slotFreed: (() => void) | undefined;
  const running = new Set<Promise<void>>();
  const whenStopping = new Promise<void>((resolve) => {
    if (stopping()) resolve();
    options.signal?.addEventListener('abort', () => resolve(), { once: true });
    options.stopNow?.addEventListener('abort', () => resolve(), { once: true });
  });
  const start = (job: TakenJob) => {
    free -= 1;
    const trial = handle(job).finally(() => {
      running.delete(trial);
      free += 1;
      slotFreed?.();
    });
    running.add(trial);
  };

  const expiry = setInterval(
    () => void options.queue.expireJobs().catch(() => undefined),
    options.expireEveryMs ?? 2000,
  );
  let checking = false;
  const cancelCheck = setInterval(() => {
    if (checking) return;
    checking = true;
    void checkCancelled()
      .catch(() => undefined)
      .finally(() => {
        checking = false;
      });
  }, options.cancelCheckEveryMs ?? 1000);
  try {
    while (!stopping()) {
      if (free === 0) {
        await Promise.race([new Promise<void>((resolve) => (slotFreed = resolve)), whenStopping]);
        slotFreed = undefined;
        continue;
      }
      let jobs: TakenJob[] = [];
      try {
        jobs = await options.queue.take(options.tags ?? [], free);
      } catch (error) {
        emit({ type: 'job_failed', experimentId: undefined, error: errorMessage(error) });
      }
      for (const job of jobs) start(job);
      if (jobs.length === 0)
        await sleep(options.pollMs ?? 500, undefined, { signal: options.signal }).catch(() => undefined);
    }
    while (running.size > 0) await Promise.all(running);
    await completer.idle();
    while (settling.size > 0) await Promise.all(settling);
  } finally {
    clearInterval(expiry);
    clearInterval(cancelCheck);
    options.stopNow?.removeEventListener('abort', onStopNow);
    await experiments.closeAll();
  }
  return { stored };
}
