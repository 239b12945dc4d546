import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/core/run-record.ts';
import { loadSuiteWithPlugins } from '../../src/plugins/file-plugins.ts';
import { finishIfComplete } from '../../src/queue/finish.ts';
import { pruneFinishedJobs } from '../../src/queue/prune-jobs.ts';
import { asQueueStore, type QueueStore } from '../../src/queue/trial-job.ts';
import { TrialQueue } from '../../src/queue/trial-queue.ts';
import { runWorker, type WorkerEvent } from '../../src/queue/worker.ts';
import { PostgresStore } from '../../src/store/postgres-store.ts';
import { makeRecord } from '../helpers/experiments.ts';
import { enqueueHeldSuite, holdHang } from '../helpers/hold-agent.ts';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';
import { jobRows } from '../helpers/queue-workers.ts';
import { waitFor } from '../helpers/run-cli.ts';

// A zombie: a worker (in process, on a real PostgreSQL) still runs a trial whose job it took long
// ago; the job expired, another worker took it again, stored the trial and completed it, the
// experiment finished and its jobs were deleted. The zombie must keep running without error, have
// its result refused, and create no second record; its look at the jobs it holds must not take the
// missing job for a deleted experiment.
let dir = '';
let url = '';
let store: QueueStore;
let queue: TrialQueue;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-queue-zombie-'));
  url = await createTestDatabase();
  store = asQueueStore(await PostgresStore.open(url));
  queue = await TrialQueue.open(url);
}, POSTGRES_SETUP_TIMEOUT_MS);
afterAll(async () => {
  await queue?.close();
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

async function sql(text: string, values: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

describe('a zombie worker whose job was deleted with its finished experiment', () => {
  it('finishes its trial without error: its result is refused, no second record, no trial stopped', async () => {
    const { experiment, suite } = await enqueueHeldSuite({
      store,
      queue,
      dir,
      name: 'zombie',
      inputs: ['a', 'b', 'hang'],
    });
    const id = experiment.id;
    const hang = holdHang();

    // The zombie: one slot, nothing taken ahead; its looks at the status of an experiment counted
    // (it asks only when a job it holds is gone).
    let statusLooks = 0;
    const counted = new Proxy(store, {
      get(target, name) {
        const value = Reflect.get(target, name, target);
        if (typeof value !== 'function') return value;
        if (name !== 'listExperiments') return value.bind(target);
        return (...args: unknown[]) =>
          (value as (...a: unknown[]) => Promise<unknown>).apply(target, args).finally(() => {
            statusLooks += 1;
          });
      },
    });
    const events: WorkerEvent[] = [];
    const stop = new AbortController();
    const zombie = runWorker({
      store: counted,
      queue,
      concurrency: 1,
      prefetch: 0,
      cwd: dir,
      env: process.env,
      loadSuite: loadSuiteWithPlugins,
      signal: stop.signal,
      onEvent: (event) => events.push(event),
      pollMs: 50,
      cancelCheckEveryMs: 50,
      expireEveryMs: 3_600_000,
    });
    await hang.started;
    // It may have run t0 or t1 before t2 (the take's order among equal jobs is the ids'): their
    // jobs complete after their records commit, which can still be under way when t2 starts. Expired
    // now, such a job would be taken again below although its trial is stored.
    await waitFor(async () => (await jobRows(url, id))['active'] === 1, 30_000);

    // Its take of t2 (`hang`) expires; another worker takes every job left, stores and completes
    // them, finishes the experiment and deletes its jobs (what worker.ts does on a drained completion).
    await sql(
      `UPDATE harnesseval_queue.job SET started_on = now() - interval '2 hours' WHERE data->>'experiment_id' = $1 AND state = 'active'`,
      [id],
    );
    await queue.expireJobs();
    const taken = await queue.take([], 10);
    expect(taken.find((job) => (job.data as { task_id: string }).task_id === 't2')?.retryCount).toBe(1);
    for (const job of taken) {
      const taskId = (job.data as { task_id: string }).task_id;
      const output = taskId === 't0' ? 'a' : taskId === 't1' ? 'b' : 'hang';
      const record = makeRecord({
        task_id: taskId,
        run_id: `${taskId}#0`,
        attempts: 1 + job.retryCount,
        output: { output },
      });
      expect(await store.appendRecordOnce(id, record)).toBe(true);
    }
    expect(await queue.complete(taken.map((job) => job.id))).toEqual([id]);
    expect(await finishIfComplete(store, suite, id)).toBe(true);
    expect(await pruneFinishedJobs(store, queue, experiment)).toBe(3);
    expect(await jobRows(url, id)).toEqual({});

    // The zombie finds t2's job gone and its experiment still stored: the trial runs on. Then it
    // answers: its record is refused, and its completion finds no job.
    await waitFor(() => statusLooks >= 1, 30_000);
    hang.release();
    await waitFor(
      () => events.some((e) => e.type === 'trial_stored' && e.record.task_id === 't2' && !e.first),
      30_000,
    );
    stop.abort();
    await zombie;
    expect(events.filter((e) => e.type === 'experiment_cancelled' || e.type === 'job_failed')).toEqual([]);
    // One record per trial; t2's is the other worker's (no worker metadata), counting both takes.
    const records = (await store.listRecords(id, { limit: 10 })) as RunRecord[];
    expect(records.map((r) => r.task_id).sort()).toEqual(['t0', 't1', 't2']);
    const held = records.find((r) => r.task_id === 't2');
    expect([held?.attempts, held?.metadata['worker']]).toEqual([2, undefined]);
    expect((await store.getExperimentDocument(id))?.status).toBe('completed');
    expect(await jobRows(url, id)).toEqual({});
  }, 60_000);
});
