import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TrialJob, trialJobId } from '../../src/queue/trial-job.ts';
import { type TakenJob, TrialQueue } from '../../src/queue/trial-queue.ts';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';
import { jobRows } from '../helpers/queue-workers.ts';

// The queue's batch take and batch completion (take-job.ts, complete-jobs.ts) on a real
// PostgreSQL, in process: each test has its own database, so no other test's jobs are in its queue.
let url = '';
const opened: TrialQueue[] = [];
beforeEach(async () => {
  url = await createTestDatabase();
}, POSTGRES_SETUP_TIMEOUT_MS);
afterEach(async () => {
  for (const queue of opened.splice(0)) await queue.close();
});

async function openQueue(): Promise<TrialQueue> {
  const queue = await TrialQueue.open(url);
  opened.push(queue);
  return queue;
}

interface Jobs {
  readonly experiment: string;
  readonly count: number;
  readonly priority?: number;
  readonly tags?: string[];
  readonly maxInFlight?: number;
}

/** Enqueues `count` jobs of `experiment` (tasks t0, t1, …); their ids. */
async function enqueue(queue: TrialQueue, jobs: Jobs): Promise<string[]> {
  const list = Array.from({ length: jobs.count }, (_, i) => {
    const data: TrialJob = {
      experiment_id: jobs.experiment,
      task_id: `t${i}`,
      epoch: 0,
      ...(jobs.tags === undefined ? {} : { tags: jobs.tags }),
      ...(jobs.maxInFlight === undefined ? {} : { max_in_flight: jobs.maxInFlight }),
    };
    return { id: trialJobId(jobs.experiment, `t${i}`, 0), data, priority: jobs.priority ?? 0 };
  });
  // One at a time: the take orders equal priorities by creation time.
  for (const job of list) await queue.enqueue([job], 60);
  return list.map((job) => job.id);
}

const experimentOf = (job: TakenJob) => (job.data as TrialJob).experiment_id;
const labels = (jobs: readonly TakenJob[]) =>
  jobs.map((job) => `${experimentOf(job)}:${(job.data as TrialJob).task_id}`);

const jobStates = (experiment: string) => jobRows(url, experiment);

describe('TrialQueue.take: several jobs in one round trip', () => {
  it('hands out up to the slots asked for: the highest priority first, then the oldest', async () => {
    const queue = await openQueue();
    await enqueue(queue, { experiment: 'low', count: 3 });
    await enqueue(queue, { experiment: 'high', count: 3, priority: 5 });
    expect(labels(await queue.take([], 4))).toEqual(['high:t0', 'high:t1', 'high:t2', 'low:t0']);
    expect(labels(await queue.take([], 16))).toEqual(['low:t1', 'low:t2']);
    expect(await queue.take([], 16)).toEqual([]);
  });

  it('never hands out more of an experiment than its max_in_flight leaves room for, counting this take', async () => {
    const queue = await openQueue();
    const limited = await enqueue(queue, { experiment: 'limited', count: 10, maxInFlight: 3 });
    await enqueue(queue, { experiment: 'free', count: 2 });
    const first = await queue.take([], 16);
    expect(labels(first).sort()).toEqual(['free:t0', 'free:t1', 'limited:t0', 'limited:t1', 'limited:t2']);
    // Three of `limited` are taken: none more until one completes.
    expect(await queue.take([], 16)).toEqual([]);
    await queue.complete([limited[0] ?? '']);
    expect(labels(await queue.take([], 16))).toEqual(['limited:t3']);
    expect(await jobStates('limited')).toEqual({ active: 3, completed: 1, created: 6 });
  });

  it('holds max_in_flight over takers asking at once (each its own connections)', async () => {
    const queues = [await openQueue(), await openQueue(), await openQueue()];
    await enqueue(queues[0] as TrialQueue, { experiment: 'shared', count: 12, maxInFlight: 4 });
    const taken = await Promise.all(queues.map((queue) => queue.take([], 16)));
    expect(taken.flat()).toHaveLength(4);
    expect(new Set(taken.flat().map((job) => job.id)).size).toBe(4);
    expect(await jobStates('shared')).toEqual({ active: 4, created: 8 });
  });

  it('gives a tagged job only to a worker with every one of its tags', async () => {
    const queue = await openQueue();
    await enqueue(queue, { experiment: 'gpu', count: 2, tags: ['gpu'], priority: 5 });
    await enqueue(queue, { experiment: 'any', count: 2 });
    expect(labels(await queue.take(['linux'], 16))).toEqual(['any:t0', 'any:t1']);
    expect(await queue.take(['linux'], 16)).toEqual([]);
    expect(labels(await queue.take(['gpu', 'linux'], 16))).toEqual(['gpu:t0', 'gpu:t1']);
  });

  it('counts a take of a job that expired in its retry count', async () => {
    const queue = await openQueue();
    const [id] = await enqueue(queue, { experiment: 'expiring', count: 1 });
    expect((await queue.take([], 1)).map((job) => job.retryCount)).toEqual([0]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // What a worker that died mid-trial leaves: the job taken long ago.
    await client.query(
      `UPDATE harnesseval_queue.job SET started_on = now() - interval '1 hour' WHERE id = $1`,
      [id],
    );
    await client.end();
    await queue.expireJobs();
    expect((await queue.take([], 1)).map((job) => [job.id, job.retryCount])).toEqual([[id, 1]]);
  });
});

describe('TrialQueue.complete: jobs in batches, and which experiments have no job left', () => {
  it('names an experiment only when the batch leaves it no waiting or running job', async () => {
    const queue = await openQueue();
    const a = await enqueue(queue, { experiment: 'a', count: 3 });
    const b = await enqueue(queue, { experiment: 'b', count: 2 });
    expect(await queue.take([], 16)).toHaveLength(5);
    expect(await queue.complete([a[0] ?? '', b[0] ?? ''])).toEqual([]);
    expect((await queue.complete([a[1] ?? '', a[2] ?? '', b[1] ?? ''])).sort()).toEqual(['a', 'b']);
    // Completing again (a zombie's late completion) changes nothing and names nothing.
    expect(await queue.complete([a[0] ?? '', a[2] ?? ''])).toEqual([]);
    expect(await jobStates('a')).toEqual({ completed: 3 });
  });

  it('clears an earlier attempt’s failure, as pg-boss’s complete does: no stale reason is reported', async () => {
    const queue = await openQueue();
    const [id = ''] = await enqueue(queue, { experiment: 'flaky', count: 1 });
    await queue.take([], 1);
    await queue.fail(id, 'the worker was stopped during the trial');
    expect(await queue.lastFailure([id])).toBe('the worker was stopped during the trial');
    expect(await queue.take([], 1)).toHaveLength(1);
    expect(await queue.complete([id])).toEqual(['flaky']);
    expect(await queue.lastFailure([id])).toBeUndefined();
  });

  it('does not name an experiment whose other jobs still wait, even if none of them runs', async () => {
    const queue = await openQueue();
    const ids = await enqueue(queue, { experiment: 'waiting', count: 3, maxInFlight: 1 });
    expect(labels(await queue.take([], 16))).toEqual(['waiting:t0']);
    expect(await queue.complete([ids[0] ?? ''])).toEqual([]);
  });

  it('of two workers completing the last two jobs at once, one is told the experiment is drained', async () => {
    const [one, two] = [await openQueue(), await openQueue()];
    for (let round = 0; round < 8; round++) {
      const experiment = `race${round}`;
      const [x, y] = await enqueue(one, { experiment, count: 2 });
      expect(await one.take([], 2)).toHaveLength(2);
      const told = await Promise.all([one.complete([x ?? '']), two.complete([y ?? ''])]);
      // The first to get the experiment's lock still sees the other's job running: only the second says so.
      expect(told.flat()).toEqual([experiment]);
    }
  });
});

describe('TrialQueue.exchange: completions and a take in one round trip', () => {
  it('completes first, so the room a completion frees under max_in_flight goes to the same take', async () => {
    const queue = await openQueue();
    const ids = await enqueue(queue, { experiment: 'limited', count: 5, maxInFlight: 2 });
    expect(labels(await queue.take([], 16))).toEqual(['limited:t0', 'limited:t1']);
    const { taken, drained } = await queue.exchange([ids[0] ?? ''], [], 16);
    expect(labels(taken)).toEqual(['limited:t2']);
    expect(drained).toEqual([]);
    expect(await jobStates('limited')).toEqual({ active: 2, completed: 1, created: 2 });
  });

  it('says which experiments the completions drained, and takes nothing when asked for none', async () => {
    const queue = await openQueue();
    const a = await enqueue(queue, { experiment: 'a', count: 2 });
    await enqueue(queue, { experiment: 'b', count: 1 });
    expect(await queue.take([], 2)).toHaveLength(2);
    expect(await queue.exchange(a, [], 0)).toEqual({ taken: [], drained: ['a'] });
    expect(await jobStates('b')).toEqual({ created: 1 });
  });
});

describe('TrialQueue.release: jobs given back untried', () => {
  it('puts taken jobs back as if never taken: their retry count does not grow when they are taken again', async () => {
    const queue = await openQueue();
    const ids = await enqueue(queue, { experiment: 'ahead', count: 3 });
    expect(await queue.take([], 3)).toHaveLength(3);
    await queue.release([ids[1] ?? '', ids[2] ?? ''], 0);
    expect(await jobStates('ahead')).toEqual({ active: 1, created: 2 });
    expect((await queue.take([], 3)).map((job) => [job.id, job.retryCount])).toEqual([
      [ids[1], 0],
      [ids[2], 0],
    ]);
    // Unlike a failure, which counts a retry.
    await queue.fail(ids[1] ?? '', 'failed');
    expect((await queue.take([], 3)).map((job) => [job.id, job.retryCount])).toEqual([[ids[1], 1]]);
  });
});

describe('TrialQueue.take over a long queue', () => {
  it('reads the jobs it hands out, not every waiting job, even when its plan was made on an empty queue', async () => {
    const queue = await openQueue();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const take = () =>
        client.query(
          `SELECT * FROM harnesseval_queue.harnesseval_take_jobs_v1('harnesseval-trials', '[]', 4)`,
        );
      // A worker polling an empty queue that autovacuum has analyzed: its session has planned (and
      // cached) the take for an empty table.
      await client.query('ANALYZE harnesseval_queue.job');
      for (let i = 0; i < 10; i++) expect((await take()).rows).toEqual([]);
      const jobs = Array.from({ length: 5000 }, (_, i) => ({
        id: trialJobId('long', `t${i}`, 0),
        data: { experiment_id: 'long', task_id: `t${i}`, epoch: 0 },
      }));
      await queue.enqueue(jobs, 60);
      // The rows this transaction read from the job table, by scans and through indexes.
      await client.query('BEGIN');
      expect((await take()).rows).toHaveLength(4);
      const { rows } = await client.query(
        `SELECT coalesce(sum(seq_tup_read), 0)::integer AS seq, coalesce(sum(idx_tup_fetch), 0)::integer AS fetched
         FROM pg_stat_xact_user_tables WHERE schemaname = 'harnesseval_queue'`,
      );
      await client.query('COMMIT');
      const read = rows[0] as { seq: number; fetched: number };
      expect(read.seq).toBe(0);
      expect(read.fetched).toBeLessThan(100);
    } finally {
      await client.end();
    }
  });
});

describe('TrialQueue.hasOpenJobs: what a follower asks every half second', () => {
  it('is true while a job of the experiment waits, waits for a retry or is taken, and false once none does', async () => {
    const queue = await openQueue();
    expect(await queue.hasOpenJobs('open')).toBe(false);
    const [a = '', b = ''] = await enqueue(queue, { experiment: 'open', count: 2 });
    await enqueue(queue, { experiment: 'other', count: 1 });
    expect(await queue.hasOpenJobs('open')).toBe(true);
    expect(await queue.take([], 2)).toHaveLength(2);
    await queue.complete([a]);
    expect(await queue.hasOpenJobs('open')).toBe(true);
    // Failed once, it waits for its retry.
    await queue.fail(b, 'the worker was stopped during the trial');
    expect(await jobStates('open')).toEqual({ completed: 1, retry: 1 });
    expect(await queue.hasOpenJobs('open')).toBe(true);
    await queue.cancel([b]);
    expect(await queue.hasOpenJobs('open')).toBe(false);
    expect(await queue.hasOpenJobs('other')).toBe(true);
  });
});

describe('TrialQueue.open', () => {
  it('lets several workers open a new queue at once (pg-boss’s create_queue deadlocked between them)', async () => {
    for (let round = 0; round < 12; round++) {
      const fresh = await createTestDatabase();
      const queues = await Promise.allSettled(Array.from({ length: 8 }, () => TrialQueue.open(fresh)));
      for (const settled of queues) if (settled.status === 'fulfilled') opened.push(settled.value);
      expect(queues.filter((q) => q.status === 'rejected').map((q) => String(q.reason))).toEqual([]);
    }
  });
});

describe('TrialQueue.enqueue, cancel and requeue of a long plan', () => {
  it('take jobs and ids as they are made, over several statements, and act on every one', async () => {
    const queue = await openQueue();
    const count = 2_500;
    let made = 0;
    function* jobs() {
      for (let i = 0; i < count; i++) {
        made++;
        yield {
          id: trialJobId('long', `t${i}`, 0),
          data: { experiment_id: 'long', task_id: `t${i}`, epoch: 0 },
        };
      }
    }
    function* ids() {
      for (let i = 0; i < count; i++) yield trialJobId('long', `t${i}`, 0);
    }
    const given = jobs();
    const enqueued = queue.enqueue(given, 60);
    // Made as they go in: when the first statement is out, the plan is not all made.
    expect(made).toBeLessThanOrEqual(1000);
    expect(await enqueued).toBe(count);
    expect(made).toBe(count);
    expect(await jobStates('long')).toEqual({ created: count });
    // Enqueued again: the jobs that exist are left as they are.
    expect(await queue.enqueue(jobs(), 60)).toBe(count);
    expect(await jobStates('long')).toEqual({ created: count });
    expect(await queue.cancel(ids())).toBe(count);
    expect(await jobStates('long')).toEqual({ cancelled: count });
    await queue.requeue(ids());
    expect(await jobStates('long')).toEqual({ created: count });
    expect(await queue.cancel([])).toBe(0);
  });
});
