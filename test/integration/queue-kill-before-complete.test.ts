import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { agentCheckout, exportedExperiment, useQueueWorkers } from '../helpers/queue-workers.ts';
import { cli, ROOT, startCli, waitFor } from '../helpers/run-cli.ts';

// A worker SIGKILLed after its records are committed and before its batch of job completions
// commits, through the built CLI (`npx tsdown` first) on a real PostgreSQL. The test holds the
// experiment's completion lock (complete-jobs.ts), so the worker's exchange of completions waits
// inside its transaction; then the worker is killed and its connection ends (the machine is gone).
//
// The jobs' expiry is an hour, and the test ages the jobs itself once the worker is dead: with a
// short expiry (it was 6 s) a loaded machine took longer than that to run the five trials, and the
// doomed worker's own expiry put jobs back before the kill (`expected 3 to be 5` active jobs).
const AGENT = join(ROOT, 'test/fixtures/queue/agent.mjs');
const TASKS = 5;

const queue = useQueueWorkers('harnesseval-queue-kill-');

async function count(db: pg.Client, sql: string, values: unknown[]): Promise<number> {
  return ((await db.query(sql, values)).rows[0] as { n: number }).n;
}

describe('a worker killed between its commits and its batch of job completions', () => {
  it('leaves no second record: each trial is run again by another worker, and its record counts the retry', async () => {
    const { root, url, pool } = queue;
    const tasks = Array.from({ length: TASKS }, (_, i) => ({ input: `task ${i}`, expected: `task ${i}` }));
    const { marks } = await agentCheckout(root, AGENT, { 'kill-before-complete': tasks });
    // The agent fixture holds the first `hang` trial unless this file exists: no trial hangs here.
    await writeFile(join(marks, 'held'), '{}');
    const queued = await cli(
      ['run', 'evals/kill-before-complete.yaml', '--queue', url, '--job-expiry', '3600', '--detach'],
      root,
    );
    expect(queued.status).toBe(0);
    const id = queued.stdout.trim();
    const env = { QUEUE_MARKS: marks };

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      await db.query('SELECT pg_advisory_lock(hashtext($1))', [`harnesseval_queue.drained.${id}`]);
      // Five slots: it takes all five jobs at once. Its completions then wait in one exchange with
      // the queue, and its next take would wait behind them (job-exchange.ts); its commits do not.
      const doomed = pool.start(root, { jobs: TASKS, env, verbose: true });
      // Every record committed, and the worker's first batch of completions waiting for the lock.
      const stored = () =>
        count(db, 'SELECT count(*)::integer AS n FROM harnesseval.records WHERE experiment_id = $1', [id]);
      const waitingCompletion = `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'
          AND query LIKE '%harnesseval_exchange_jobs_v1%'`;
      await waitFor(
        async () => (await stored()) === TASKS && (await db.query(waitingCompletion)).rowCount === 1,
        90_000,
      );
      const blocked = (await db.query(waitingCompletion)).rows[0] as { pid: number };
      doomed.child.kill('SIGKILL');
      await doomed.done;
      // Its connection goes with the machine: the completion it began is rolled back.
      await db.query('SELECT pg_terminate_backend($1)', [blocked.pid]);
      await db.query('SELECT pg_advisory_unlock(hashtext($1))', [`harnesseval_queue.drained.${id}`]);
      const jobs = `SELECT count(*)::integer AS n FROM harnesseval_queue.job WHERE data->>'experiment_id' = $1 AND state = $2`;
      expect(await count(db, jobs, [id, 'active'])).toBe(TASKS);
      expect(await count(db, jobs, [id, 'completed'])).toBe(0);

      // Every trial has a record while its jobs are still taken: `runs watch` does not call the
      // experiment done before they end (each retry counts an attempt on its record).
      const watch = startCli(['runs', '--store', url, 'watch', id], root);
      const early = await Promise.race([watch.done.then(() => true), sleep(4000).then(() => false)]);
      expect(early, `runs watch ended while jobs were active: ${watch.stderr()}`).toBe(false);

      // The jobs expire (as an hour later); another worker runs every trial again, keeps the first
      // records and completes the jobs; only then does the watch report the experiment completed.
      await db.query(
        `UPDATE harnesseval_queue.job SET started_on = now() - interval '2 hours' WHERE data->>'experiment_id' = $1 AND state = 'active'`,
        [id],
      );
      const survivor = pool.start(root, { jobs: 2, env });
      const watched = await watch.done;
      const open = `SELECT count(*)::integer AS n FROM harnesseval_queue.job WHERE data->>'experiment_id' = $1 AND state IN ('created', 'retry', 'active')`;
      expect(await count(db, open, [id])).toBe(0);
      // Every retry ended, so the finished experiment's jobs are gone (a worker or the watch deleted them).
      const all = `SELECT count(*)::integer AS n FROM harnesseval_queue.job WHERE data->>'experiment_id' = $1`;
      expect(await count(db, all, [id])).toBe(0);
      expect(watched.stdout).toContain(`experiment ${id} completed`);
      expect(watched.status).toBe(0);
      expect(await pool.stop(survivor)).toBe(0);
      const experiment = await exportedExperiment(url, root, id);
      expect(experiment.status).toBe('completed');
      expect(experiment.records.map((r) => [r.task_id, r.attempts]).sort()).toEqual(
        Array.from({ length: TASKS }, (_, i) => [`t${i}`, 2]),
      );
      // The first records stay: the killed worker's.
      expect(new Set(experiment.records.map((r) => r.metadata.worker?.pid))).toEqual(
        new Set([doomed.child.pid]),
      );
      expect(survivor.stderr().match(/was already stored; this result is dropped/g)).toHaveLength(TASKS);
      // --verbose prints every trial; without it a worker prints its retries and drops, not passes.
      expect(doomed.stderr()).toContain(`stored t0#0 of ${id}: pass`);
      expect(survivor.stderr().match(/running t\d#0 of \S+ \(retry 1\)/g)).toHaveLength(TASKS);
      expect(survivor.stderr()).not.toMatch(/^stored /m);
    } finally {
      await db.end();
    }
  }, 180_000);
});
