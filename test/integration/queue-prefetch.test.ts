import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSuiteWithPlugins } from '../../src/plugins/file-plugins.ts';
import { cancelExperiment } from '../../src/queue/follow.ts';
import { asQueueStore, type QueueStore } from '../../src/queue/trial-job.ts';
import { TrialQueue } from '../../src/queue/trial-queue.ts';
import { runWorker, type WorkerEvent } from '../../src/queue/worker.ts';
import { PostgresStore } from '../../src/store/postgres-store.ts';
import { enqueueHeldSuite, holdHang } from '../helpers/hold-agent.ts';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';
import { waitFor } from '../helpers/run-cli.ts';

// A worker whose trials are short takes a job ahead of its one slot (prefetch.ts), in process on a
// real PostgreSQL. The trial `hang` waits until the test lets it go, so the test can look while
// the worker holds one job running and one ahead, and then stop it or cancel the experiment.

let dir = '';
let store: QueueStore;
let queue: TrialQueue;
let db: pg.Client;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-queue-prefetch-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
// A database of its own for each test: no worker takes another test's jobs.
beforeEach(async () => {
  const url = await createTestDatabase();
  store = asQueueStore(await PostgresStore.open(url));
  queue = await TrialQueue.open(url);
  db = new pg.Client({ connectionString: url });
  await db.connect();
}, POSTGRES_SETUP_TIMEOUT_MS);
afterEach(async () => {
  await db?.end();
  await queue?.close();
  await store?.close();
});

/** 50 trials: t0–t39 answer at once, t40 hangs, t41–t49 answer at once. Its id. */
async function enqueueHanging(name: string): Promise<string> {
  const inputs = Array.from({ length: 50 }, (_, i) => (i === 40 ? 'hang' : `x${i}`));
  const { experiment } = await enqueueHeldSuite({ store, queue, dir, name, inputs });
  // One enqueue gives its jobs one creation time, so they are taken in the order of their ids: the
  // test puts t40 after t0–t39 and t41–t49 after it, so the worker has a rate of finishes by then.
  await db.query(
    `UPDATE harnesseval_queue.job
     SET created_on = created_on + CASE WHEN data->>'task_id' = 't40' THEN interval '1 second' ELSE interval '2 seconds' END
     WHERE data->>'experiment_id' = $1 AND (data->>'task_id') = ANY($2::text[])`,
    [experiment.id, Array.from({ length: 10 }, (_, i) => `t${40 + i}`)],
  );
  return experiment.id;
}

async function jobStates(
  id: string,
): Promise<Map<string, { state: string; retries: number; started: boolean }>> {
  const { rows } = await db.query(
    `SELECT data->>'task_id' AS task, state, retry_count, started_on IS NOT NULL AS started
     FROM harnesseval_queue.job WHERE data->>'experiment_id' = $1`,
    [id],
  );
  return new Map(
    rows.map((r: { task: string; state: string; retry_count: number; started: boolean }) => [
      r.task,
      { state: r.state, retries: r.retry_count, started: r.started },
    ]),
  );
}

/**
 * The job the worker holds ahead of its slot while t40 hangs: every job it took before is done, and
 * one more is taken (the plan's order is shuffled by its seed, so which task that is varies).
 */
async function jobAhead(id: string): Promise<string | undefined> {
  const states = await jobStates(id);
  const active = [...states].filter(([, job]) => job.state === 'active').map(([task]) => task);
  const finished = [...states.values()].filter((job) => job.state === 'completed').length;
  if (active.length !== 2 || !active.includes('t40') || finished !== 48 - countWaiting(states))
    return undefined;
  return active.find((task) => task !== 't40');
}

/** Waits for the worker to hold a job ahead while t40 hangs; that job's task. */
async function aheadOf(id: string): Promise<string> {
  let ahead: string | undefined;
  await waitFor(async () => {
    ahead = await jobAhead(id);
    return ahead !== undefined;
  }, 30_000);
  return ahead ?? '';
}

const countWaiting = (states: Map<string, { state: string }>) =>
  [...states.values()].filter((job) => job.state === 'created').length;

function startWorker(stop: AbortController, events: WorkerEvent[]) {
  return runWorker({
    store,
    queue,
    concurrency: 1,
    cwd: dir,
    env: process.env,
    loadSuite: loadSuiteWithPlugins,
    signal: stop.signal,
    onEvent: (event) => events.push(event),
    pollMs: 50,
    cancelCheckEveryMs: 50,
    // However slowly a loaded machine runs the trials before t40, a job is taken ahead.
    prefetchHorizonMs: 10_000,
  });
}

/**
 * A worker (-j 1) on a new experiment, once t40 hangs in its slot with one job taken ahead (every
 * job before is done); that job's task is `ahead`.
 */
async function workerHoldingAhead(name: string) {
  const id = await enqueueHanging(name);
  const hang = holdHang();
  const stop = new AbortController();
  const events: WorkerEvent[] = [];
  const worker = startWorker(stop, events);
  await hang.started;
  return { id, hang, stop, events, worker, ahead: await aheadOf(id) };
}

const startedTasks = (events: readonly WorkerEvent[]) =>
  events.flatMap((e) => (e.type === 'trial_start' ? [e.key.split('#')[0]] : []));
const storedTasks = (events: readonly WorkerEvent[]) =>
  events.flatMap((e) => (e.type === 'trial_stored' ? [e.record.task_id] : [])).sort();

describe('a worker with short trials takes a job ahead of its free slot', () => {
  it('gives the job it took ahead back untried when it stops, and finishes the trial in flight', async () => {
    const { id, hang, stop, events, worker, ahead } = await workerHoldingAhead('prefetch-stop');

    stop.abort();
    await waitFor(async () => (await jobStates(id)).get(ahead)?.state === 'created', 30_000);
    hang.release();
    const { stored } = await worker;

    const states = await jobStates(id);
    const completed = [...states].filter(([, job]) => job.state === 'completed').map(([task]) => task);
    expect(completed).toContain('t40');
    expect(stored).toBe(completed.length);
    expect(storedTasks(events)).toEqual(completed.sort());
    expect(startedTasks(events).sort()).toEqual(completed.sort());
    // The rest waits as if never taken (the one taken ahead too): the next take counts no retry.
    for (const [task, job] of states)
      if (!completed.includes(task)) expect(job).toEqual({ state: 'created', retries: 0, started: false });
    expect(completed).not.toContain(ahead);
  }, 60_000);

  it('never starts a job taken ahead once its experiment is cancelled', async () => {
    const { id, hang, stop, events, worker, ahead } = await workerHoldingAhead('prefetch-cancel');
    const done = await store.countRecords(id);

    await cancelExperiment(store, queue, id);
    await waitFor(() => events.some((e) => e.type === 'experiment_cancelled'), 30_000);
    hang.release();
    stop.abort();
    const { stored } = await worker;
    // Nothing of the cancelled trial in flight is stored, and the job ahead never ran.
    expect(stored).toBe(done);
    expect(await store.countRecords(id)).toBe(done);
    expect(startedTasks(events)).not.toContain(ahead);
    expect(startedTasks(events)).toContain('t40');
    expect((await jobStates(id)).get(ahead)?.state).toBe('cancelled');
  }, 60_000);
});
