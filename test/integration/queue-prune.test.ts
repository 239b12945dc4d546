import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Suite } from '../../src/core/suite.ts';
import { finishIfComplete } from '../../src/queue/finish.ts';
import { cancelExperiment } from '../../src/queue/follow.ts';
import { deleteJobRows, pruneFinishedJobs } from '../../src/queue/prune-jobs.ts';
import { cleanupQueue } from '../../src/queue/queue-cleanup.ts';
import { asQueueStore, planJobIds, type QueueStore } from '../../src/queue/trial-job.ts';
import { TrialQueue } from '../../src/queue/trial-queue.ts';
import type { ExperimentDocument } from '../../src/store/documents.ts';
import { PostgresStore } from '../../src/store/postgres-store.ts';
import { makeRecord } from '../helpers/experiments.ts';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';
import { jobRows } from '../helpers/queue-workers.ts';
import { enqueueSuite, queuedSuite } from '../helpers/queued-suites.ts';

// Deleting the job rows of finished experiments (prune-jobs.ts, queue-cleanup.ts) on a real
// PostgreSQL, in process, each test on its own database. The finishers here are the calls a
// worker and a follower make (worker.ts, follow.ts); the built CLI's are in queue-cleanup-cli.test.ts.
let url = '';
let store: QueueStore;
const opened: TrialQueue[] = [];
beforeEach(async () => {
  url = await createTestDatabase();
  store = asQueueStore(await PostgresStore.open(url));
}, POSTGRES_SETUP_TIMEOUT_MS);
afterEach(async () => {
  for (const queue of opened.splice(0)) await queue.close();
  await store?.close();
});

async function openQueue(): Promise<TrialQueue> {
  const queue = await TrialQueue.open(url);
  opened.push(queue);
  return queue;
}

/** A queued experiment of `tasks` tasks, one epoch: stored `running`, one job per trial. */
async function queued(queue: TrialQueue, suite: Suite): Promise<ExperimentDocument> {
  return (await enqueueSuite(store, queue, suite)).experiment;
}

/** What a worker does for a trial: its record committed, then (by the caller) its job completed. */
async function store1(experiment: ExperimentDocument, taskId: string): Promise<boolean> {
  return store.appendRecordOnce(experiment.id, makeRecord({ task_id: taskId, epoch: 0 }));
}

const rows = (experimentId: string) => jobRows(url, experimentId);

/** Takes every waiting job, stores each trial's record and completes the jobs; the drained experiments. */
async function runAll(queue: TrialQueue, experiment: ExperimentDocument): Promise<string[]> {
  const taken = await queue.take([], planJobIds(experiment).length);
  for (const job of taken) await store1(experiment, (job.data as { task_id: string }).task_id);
  return queue.complete(taken.map((job) => job.id));
}

describe('a finished experiment’s jobs', () => {
  it('are deleted by its finisher; a second finisher, or a late one, finds none and does not fail', async () => {
    const queue = await openQueue();
    const suite = queuedSuite(30);
    const experiment = await queued(queue, suite);
    expect(await runAll(queue, experiment)).toEqual([experiment.id]);
    expect(await finishIfComplete(store, suite, experiment.id)).toBe(true);
    expect(await rows(experiment.id)).toEqual({ completed: 30 });

    expect(await pruneFinishedJobs(store, queue, experiment)).toBe(30);
    expect(await rows(experiment.id)).toEqual({});
    expect(await pruneFinishedJobs(store, queue, experiment)).toBe(0);
    expect(await queue.hasOpenJobs(experiment.id)).toBe(false);
    expect((await store.getExperimentDocument(experiment.id))?.status).toBe('completed');
  });

  it('stay while the experiment runs or is interrupted, and a job still open stays until it ends', async () => {
    const queue = await openQueue();
    const suite = queuedSuite(10);
    const experiment = await queued(queue, suite);
    const taken = await queue.take([], 10);
    for (const job of taken) await store1(experiment, (job.data as { task_id: string }).task_id);
    const [last, ...rest] = taken.map((job) => job.id);
    await queue.complete(rest);
    // Running: nothing goes, ended jobs included.
    expect(await pruneFinishedJobs(store, queue, experiment)).toBe(0);
    expect(await rows(experiment.id)).toEqual({ active: 1, completed: 9 });

    // Every trial stored while one job is still taken (its worker died after the commit): a
    // follower finishes the experiment, and the taken job stays open for its retry to count.
    expect(await finishIfComplete(store, suite, experiment.id)).toBe(true);
    expect(await pruneFinishedJobs(store, queue, experiment)).toBe(9);
    expect(await rows(experiment.id)).toEqual({ active: 1 });
    expect(await queue.hasOpenJobs(experiment.id)).toBe(true);
    expect(await queue.complete([last ?? ''])).toEqual([experiment.id]);
    expect(await pruneFinishedJobs(store, queue, experiment)).toBe(1);
    expect(await queue.hasOpenJobs(experiment.id)).toBe(false);

    const stopped = await queued(queue, queuedSuite(5));
    await queue.take([], 2);
    await cancelExperiment(store, queue, stopped.id);
    expect(await pruneFinishedJobs(store, queue, stopped)).toBe(0);
    expect(await rows(stopped.id)).toEqual({ cancelled: 5 });
  });

  it('leave a zombie nothing to break: its late completion, failure and record change nothing', async () => {
    const queue = await openQueue();
    const suite = queuedSuite(3);
    const experiment = await queued(queue, suite);
    const [zombie] = await queue.take([], 1);
    const jobId = zombie?.id ?? '';
    // Its take expires (the worker hangs); another worker takes the job again and finishes it all.
    await expireAll();
    await queue.expireJobs();
    await runAll(queue, experiment);
    expect(await finishIfComplete(store, suite, experiment.id)).toBe(true);
    expect(await pruneFinishedJobs(store, queue, experiment)).toBe(3);

    // The zombie comes back: its record is refused, its completion and failure find no job, and
    // the worker's look at the jobs it holds says its job is gone (it stops the trial).
    expect(await store.appendRecordOnce(experiment.id, makeRecord({ task_id: 't0', run_id: 'late' }))).toBe(
      false,
    );
    expect(await queue.complete([jobId])).toEqual([]);
    await queue.fail(jobId, 'the worker was stopped during the trial');
    await queue.release([jobId], 0);
    expect(await queue.stoppedAmong([jobId])).toEqual({ cancelled: [], gone: [jobId] });
    expect(await rows(experiment.id)).toEqual({});
    expect(await store.outcomeCounts(experiment.id)).toEqual({ pass: 3 });
    expect(await queue.take([], 10)).toEqual([]);
  });

  it('are deleted once by finishers racing, without errors or deadlocks', async () => {
    const queues = await Promise.all([openQueue(), openQueue(), openQueue(), openQueue()]);
    const queue = queues[0] as TrialQueue;
    const experiment = await queued(queue, queuedSuite(20_000));
    const taken = await queue.take([], 20_000);
    for (let i = 0; i < taken.length; i += 5000)
      await queue.complete(taken.slice(i, i + 5000).map((job) => job.id));
    await store.updateExperiment(experiment.id, { status: 'completed' });
    const deleted = await Promise.all(queues.map((q) => pruneFinishedJobs(store, q, experiment)));
    expect(deleted.reduce((a, b) => a + b, 0)).toBe(20_000);
    expect(await rows(experiment.id)).toEqual({});
  }, 120_000);

  it('made after the finisher read the clock are not deleted', async () => {
    const queue = await openQueue();
    const experiment = await queued(queue, queuedSuite(4));
    await runAll(queue, experiment);
    const ids = planJobIds(experiment);
    expect(await deleteJobRows(queue, ids, { createdBefore: new Date(0), endedOnly: false })).toBe(0);
    expect(await rows(experiment.id)).toEqual({ completed: 4 });
  });
});

describe('an interrupted experiment’s jobs', () => {
  it('stay until a resume puts them back, which counts the stopped attempt; then they go', async () => {
    const queue = await openQueue();
    const suite = queuedSuite(3);
    const experiment = await queued(queue, suite);
    const [first] = await queue.take([], 1);
    await store1(experiment, (first?.data as { task_id: string } | undefined)?.task_id ?? '');
    await queue.complete([first?.id ?? '']);
    // A second trial is running when the experiment is cancelled: it stops and stores nothing.
    const [running] = await queue.take([], 1);
    const [never] = planJobIds(experiment).filter((id) => id !== first?.id && id !== running?.id);
    await cancelExperiment(store, queue, experiment.id);
    expect(await cleanupQueue(store, queue)).toEqual({
      finished: { rows: 0, experiments: 0 },
      gone: { rows: 0, experiments: 0 },
      interrupted: { rows: 3, experiments: 1 },
      running: { rows: 0, experiments: 0 },
    });
    expect(await rows(experiment.id)).toEqual({ completed: 1, cancelled: 2 });

    const resumed = await enqueueSuite(store, queue, suite, experiment.id);
    expect(resumed.queued).toBe(2);
    const again = await queue.take([], 10);
    // The trial stopped by the cancel was taken before: this take is its second attempt.
    expect(again.map((job) => [job.id, job.retryCount]).sort()).toEqual(
      [
        [running?.id, 1],
        [never, 0],
      ].sort(),
    );
    for (const job of again) await store1(experiment, (job.data as { task_id: string }).task_id);
    expect(await queue.complete(again.map((job) => job.id))).toEqual([experiment.id]);
    expect(await finishIfComplete(store, suite, experiment.id)).toBe(true);
    expect(await pruneFinishedJobs(store, queue, experiment)).toBe(3);
    expect(await rows(experiment.id)).toEqual({});
  });
});

describe('cleanupQueue (runs cleanup --queue)', () => {
  it('deletes the ended jobs of finished experiments and every job of deleted ones, keeps the rest, and says so', async () => {
    const queue = await openQueue();
    // What a release that deleted nothing left: two finished experiments with all their rows.
    const finished = [await queued(queue, queuedSuite(7)), await queued(queue, queuedSuite(5))];
    for (const experiment of finished) {
      await runAll(queue, experiment);
      await store.updateExperiment(experiment.id, { status: 'completed' });
    }
    const interrupted = await queued(queue, queuedSuite(4));
    await cancelExperiment(store, queue, interrupted.id);
    const deleted = await queued(queue, queuedSuite(6));
    await queue.take([], 2);
    await store.deleteExperiment(deleted.id);
    const running = await queued(queue, queuedSuite(3));

    expect(await cleanupQueue(store, queue, { batch: 4 })).toEqual({
      finished: { rows: 12, experiments: 2 },
      gone: { rows: 6, experiments: 1 },
      interrupted: { rows: 4, experiments: 1 },
      running: { rows: 3, experiments: 1 },
    });
    for (const experiment of [...finished, deleted]) expect(await rows(experiment.id)).toEqual({});
    expect(await rows(interrupted.id)).toEqual({ cancelled: 4 });
    expect(await rows(running.id)).toEqual({ created: 3 });
    expect((await cleanupQueue(store, queue)).finished).toEqual({ rows: 0, experiments: 0 });
  });
});

/** Makes every taken job look taken long ago, as a worker that hangs leaves it. */
async function expireAll(): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `UPDATE harnesseval_queue.job SET started_on = now() - interval '1 hour' WHERE state = 'active'`,
    );
  } finally {
    await client.end();
  }
}
