import { hostname } from 'node:os';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { RunRecord } from '../core/run-record.ts';
import { isValidated, markValidated } from '../core/validated-record.ts';
import { sizeMatchPool } from '../evaluators/match-pool.ts';
import { recordingListener } from '../runner/child-records.ts';
import { TrialDeadlines } from '../runner/deadline.ts';
import { trialKey } from '../runner/plan.ts';
import { runTrial } from '../runner/trial.ts';
import { withChildGroupListener } from '../util/child-groups.ts';
import { ExperimentCache } from './experiment-cache.ts';
import { experimentStatus, finishIfComplete, plannedTrials } from './finish.ts';
import { JobExchange } from './job-exchange.ts';
import { Linger } from './linger.ts';
import { PrefetchTarget } from './prefetch.ts';
import { pruneFinishedJobs } from './prune-jobs.ts';
import { openQueuedExperiment, type QueuedExperiment } from './queued-experiment.ts';
import { SharedRateLimiter } from './shared-rate-limiter.ts';
import { type TrialJob, TrialJobSchema } from './trial-job.ts';
import type { TakenJob } from './trial-queue.ts';
import type { WorkerEvent, WorkerOptions } from './worker-options.ts';

/** A refused job waits this long before any worker takes it again. */
const REFUSED_DELAY_SECONDS = 10;
/** Finished trials gather this long before their records commit together (linger.ts). */
const COMMIT_LINGER_MS = 20;

export type { WorkerEvent, WorkerOptions } from './worker-options.ts';

/** A job this worker holds: taken, its data read. */
interface HeldJob {
  readonly job: TakenJob;
  readonly trial: TrialJob;
}

/** A trial that ran to a record, handed over to be committed and its job completed. */
interface FinishedTrial {
  readonly job: TakenJob;
  readonly queued: QueuedExperiment;
  readonly record: RunRecord;
}

/** What a worker opens per experiment: the runner's setup, and where its child processes are recorded. */
type OpenedExperiment = QueuedExperiment & { readonly recorder: ReturnType<typeof recordingListener> };

/**
 * Takes trial jobs until `signal` aborts: runs each trial as the local runner does, commits its
 * record (the first record of a trial wins), and only then completes the job. A worker killed
 * before the commit leaves its job taken; the job expires and another worker runs the trial again.
 *
 * A slot is free again as soon as its trial's record is handed over: records commit in groups
 * (linger.ts), their jobs complete in the next exchange with the queue, and a take of jobs for
 * the free slots and a few ahead of them rides along (job-exchange.ts, prefetch.ts).
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
  const experiments = new ExperimentCache<OpenedExperiment>(async (id) => {
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
      // One listener for all the experiment's trials: concurrent trials with the same listener
      // need no AsyncLocalStorage (util/child-groups.ts), whose promise hooks cost every trial.
      const recorder = recordingListener(options.store, id);
      const close = () =>
        recorder
          .flush()
          .then(() => queued.close())
          .finally(() => openDeadlines.delete(deadlines));
      return { ...queued, recorder, close };
    } catch (error) {
      openDeadlines.delete(deadlines);
      throw error;
    }
  }, options.openExperiments);

  /** The jobs this worker holds (taken, not yet given back or completed), by id: their experiment. */
  const held = new Map<string, string>();
  /** Held jobs found cancelled: none of their trials starts, and a stopped one is not put back. */
  const cancelled = new Set<string>();
  /** Taken ahead of a free slot, not begun, oldest first. */
  const ahead: HeldJob[] = [];
  const forget = (jobId: string) => {
    held.delete(jobId);
    cancelled.delete(jobId);
  };
  // A cancel from any machine shows in the jobs' state, a `runs delete` in their absence: the
  // worker looks at the jobs it holds (one query for all of them), stops that experiment's trials
  // here and forgets its opened state.
  const checkCancelled = async () => {
    if (held.size === 0) return;
    const { cancelled: found, gone } = await options.queue.stoppedAmong([...held.keys()]);
    const stopped = new Map<string, 'cancelled' | 'deleted'>();
    const stop = (jobId: string, reason: 'cancelled' | 'deleted') => {
      const experimentId = held.get(jobId);
      if (cancelled.has(jobId) || experimentId === undefined) return;
      cancelled.add(jobId);
      stopped.set(experimentId, reason);
    };
    for (const jobId of found) stop(jobId, 'cancelled');
    // A job is also gone when its experiment finished while this worker's take of it had expired:
    // taken again and ended elsewhere, its ended row was deleted (prune-jobs.ts). That trial is a
    // zombie's (one not begun is dropped, one running runs on and its result is refused, as
    // before); only an experiment the store no longer has (`runs delete`) stops its trials here.
    // One status read per experiment, however many of its held jobs are gone.
    const exists = new Map<string, boolean>();
    for (const jobId of gone) {
      const experimentId = held.get(jobId);
      if (experimentId === undefined) continue;
      if (!exists.has(experimentId))
        exists.set(experimentId, (await experimentStatus(options.store, experimentId)) !== undefined);
      if (exists.get(experimentId) !== true) stop(jobId, 'deleted');
      else if (ahead.some(({ job }) => job.id === jobId)) cancelled.add(jobId);
      else forget(jobId);
    }
    for (let i = ahead.length - 1; i >= 0; i--) {
      const id = ahead[i]!.job.id;
      if (cancelled.has(id)) {
        ahead.splice(i, 1);
        forget(id);
      }
    }
    for (const [experimentId, reason] of stopped) {
      const error = new Error(`experiment ${experimentId} was ${reason}`);
      experiments.drop(experimentId, (queued) => queued.deadlines.abortAll(error));
      emit({ type: 'experiment_cancelled', experimentId, reason });
    }
  };

  let free = options.concurrency;
  /** Trials handed over whose jobs are not completed yet (their commit or completion is out). */
  let unsettled = 0;
  const prefetch = new PrefetchTarget({
    max: options.prefetch ?? options.concurrency,
    ...(options.prefetchHorizonMs === undefined ? {} : { horizonMs: options.prefetchHorizonMs }),
  });
  const running = new Set<Promise<void>>();
  /** Commits, completions, finishing checks and give-backs still going on after their slot was freed. */
  const settling = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    const tracked = work.finally(() => settling.delete(tracked));
    settling.add(tracked);
  };

  const exchange = new JobExchange({
    queue: options.queue,
    tags: options.tags ?? [],
    // Bounded while commits lag (a slow database): trials do not run far ahead of their records.
    wanted: () =>
      stopping() || unsettled >= Math.max(64, 4 * options.concurrency)
        ? 0
        : Math.max(0, free + prefetch.target() - ahead.length),
    starving: () => free > 0 && ahead.length === 0 && !stopping(),
    onTaken: (jobs) => {
      for (const job of jobs) hold(job);
      if (stopping()) giveBack();
      fill();
    },
    onTakeError: (error) => emit({ type: 'job_failed', experimentId: undefined, error: errorMessage(error) }),
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
  });

  const hold = (job: TakenJob) => {
    const parsed = TrialJobSchema.safeParse(job.data);
    if (!parsed.success) {
      track(options.queue.fail(job.id, 'not a trial job').catch(() => undefined));
      return emit({ type: 'job_failed', experimentId: undefined, error: 'not a trial job' });
    }
    held.set(job.id, parsed.data.experiment_id);
    ahead.push({ job, trial: parsed.data });
  };

  // Jobs taken ahead and never begun go back untried: other workers take them at once.
  const giveBack = () => {
    const ids = ahead.splice(0).map(({ job }) => job.id);
    for (const id of ids) forget(id);
    track(options.queue.release(ids, 0).catch(() => undefined));
  };

  const fill = () => {
    while (free > 0 && ahead.length > 0 && !stopping()) {
      const next = ahead.shift()!;
      if (cancelled.has(next.job.id)) forget(next.job.id);
      else start(next);
    }
  };

  const start = (job: HeldJob) => {
    free -= 1;
    const trial = runSlot(job).finally(() => running.delete(trial));
    running.add(trial);
  };

  const runSlot = async ({ job, trial }: HeldJob) => {
    const experimentId = trial.experiment_id;
    let finished: FinishedTrial | undefined;
    try {
      finished = await experiments.use(experimentId, (queued) => runJob(job, trial, queued));
    } catch (error) {
      if (!cancelled.has(job.id)) {
        // A refusal (this checkout has another version of the suite) leaves the job to other workers.
        const refused = HarnessEvalError.is(error) && error.code === 'invalid_input';
        const back = refused
          ? options.queue.release([job.id], REFUSED_DELAY_SECONDS)
          : options.queue.fail(job.id, errorMessage(error));
        await back.catch(() => undefined);
        emit({ type: 'job_failed', experimentId, error: errorMessage(error) });
      }
    } finally {
      free += 1;
      if (finished !== undefined) {
        unsettled += 1;
        prefetch.finished();
        commits.add(finished);
      } else forget(job.id);
      fill();
      exchange.poke();
    }
  };

  const runJob = async (
    job: TakenJob,
    { task_id: taskId, epoch }: TrialJob,
    queued: OpenedExperiment,
  ): Promise<FinishedTrial | undefined> => {
    const experimentId = queued.experiment.id;
    const taskIndex = queued.taskIndexes.get(taskId) ?? -1;
    const task = queued.tasks[taskIndex];
    if (task === undefined) {
      // The stored experiment may have changed since it was opened here: the next job reads it again.
      experiments.drop(experimentId);
      throw new Error(`experiment ${experimentId} has no task ${taskId}`);
    }
    // Taken before the cancel and waiting (for the experiment to open) when the worker saw it.
    if (cancelled.has(job.id)) return undefined;
    const key = trialKey(taskId, epoch);
    emit({ type: 'trial_start', experimentId, key, retry: job.retryCount });
    const record = await withChildGroupListener(queued.recorder, () =>
      runTrial({ task, taskIndex, epoch, key }, queued.setup),
    );
    await queued.recorder.flush();
    if (record === undefined) {
      // Stopped before it had a result: not a result of the harness. Cancelled, it stays so (a
      // resume runs it); else another worker runs it.
      if (!cancelled.has(job.id)) await options.queue.fail(job.id, 'the worker was stopped during the trial');
      return undefined;
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
    return { job, queued, record: counted };
  };

  // The records of trials finishing within COMMIT_LINGER_MS go in one statement (the store groups
  // the appends of one turn); each job completes only once its own record is committed.
  const commits = new Linger<FinishedTrial>(COMMIT_LINGER_MS, (trials) => {
    for (const trial of trials) track(settle(trial));
  });

  const settle = async ({ job, queued, record }: FinishedTrial) => {
    const experimentId = queued.experiment.id;
    try {
      let first: boolean;
      try {
        first = await options.store.appendRecordOnce(experimentId, record);
        // Stored already by a take of this job whose worker died before completing it: the record
        // stays the first one, and counts this attempt too.
        if (!first && job.retryCount > 0)
          await options.store.countAttempts({
            experimentId,
            taskId: record.task_id,
            epoch: record.epoch,
            attempts: record.attempts,
          });
      } catch (error) {
        // Not stored: the job goes back, and a later take runs the trial again.
        forget(job.id);
        await options.queue.fail(job.id, errorMessage(error)).catch(() => undefined);
        return emit({ type: 'job_failed', experimentId, error: errorMessage(error) });
      }
      forget(job.id);
      stored += first ? 1 : 0;
      emit({ type: 'trial_stored', experimentId, record, first });
      try {
        // The record is committed before the job completes: a kill in between only repeats the trial.
        if (!(await exchange.complete({ jobId: job.id, experimentId }))) return;
        // No job of the experiment waits or runs: the stored records say whether it is complete.
        const planned = plannedTrials(queued.experiment);
        const metrics = queued.plugins.metrics;
        if (await finishIfComplete(options.store, queued.suite, experimentId, { metrics, planned })) {
          // Finished: no job of it is left to run here, so its agent and gateway need not stay open.
          experiments.drop(experimentId);
          emit({ type: 'experiment_finished', experimentId });
        }
      } catch (error) {
        // The record is stored; the job stays taken, expires and the trial runs again (a counted retry).
        return emit({ type: 'job_failed', experimentId, error: errorMessage(error) });
      }
      // Finished now or before (a follower finished it while this job was still open): its ended
      // jobs go. Rows a failure here leaves are removed by the next finisher or `runs cleanup --queue`.
      await pruneFinishedJobs(options.store, options.queue, queued.experiment).catch(() => 0);
    } finally {
      unsettled -= 1;
      exchange.poke();
    }
  };

  const whenStopping = new Promise<void>((resolve) => {
    if (stopping()) resolve();
    options.signal?.addEventListener('abort', () => resolve(), { once: true });
    options.stopNow?.addEventListener('abort', () => resolve(), { once: true });
  });
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
    exchange.poke();
    await whenStopping;
    exchange.close();
    giveBack();
    while (running.size > 0) await Promise.all(running);
    commits.flush();
    while (settling.size > 0) await Promise.all(settling);
    await exchange.idle();
    // A take that was out when the worker stopped hands its jobs back too.
    while (settling.size > 0) await Promise.all(settling);
  } finally {
    clearInterval(expiry);
    clearInterval(cancelCheck);
    exchange.close();
    options.stopNow?.removeEventListener('abort', onStopNow);
    await experiments.closeAll();
  }
  return { stored };
}
