import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';
import { jobRows } from '../helpers/queue-workers.ts';
import { alive, cli, ROOT, type RunningCli, startCli, waitFor } from '../helpers/run-cli.ts';

// The built CLI (`npx tsdown` first): `run --queue`, real `worker` subprocesses and `runs watch`
// against a real PostgreSQL (test/helpers/postgres.ts), with a cli harness (fixtures/queue/agent.mjs).
const AGENT = join(ROOT, 'test/fixtures/queue/agent.mjs');
const TEST_TIMEOUT_MS = 240_000;

let root = '';
let url = '';
const workers: RunningCli[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-queue-'));
  url = await createTestDatabase();
}, POSTGRES_SETUP_TIMEOUT_MS);
afterEach(() => {
  for (const worker of workers.splice(0)) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

let checkouts = 0;
/** A checkout of a repository holding the suite: `tasks` tasks answered by the agent, plus `hang`. */
async function checkout(tasks: number, comment = ''): Promise<{ dir: string; marks: string }> {
  checkouts += 1;
  const dir = join(root, `checkout-${checkouts}`);
  const marks = join(dir, 'marks');
  await mkdir(join(dir, 'evals'), { recursive: true });
  await mkdir(marks);
  await copyFile(AGENT, join(dir, 'evals', 'agent.mjs'));
  const tests = Array.from(
    { length: tasks },
    (_, i) => `  - id: t${i}\n    input: "task ${i}"\n    expected: "task ${i}"\n`,
  );
  tests.push('  - id: hang\n    input: hang\n    expected: hang\n');
  await writeFile(
    join(dir, 'evals', 'suite.yaml'),
    `${comment}version: "1.0"\nname: queue-suite\nagent:\n  adapter: cli\n  command: node\n  args: ["./agent.mjs"]\n  inherit_env: [QUEUE_MARKS]\ntests:\n${tests.join('')}`,
  );
  return { dir, marks };
}

function worker(dir: string, marks: string, jobs = 2): RunningCli {
  const started = startCli(['worker', '--queue', url, '-j', String(jobs)], dir, { QUEUE_MARKS: marks });
  workers.push(started);
  return started;
}

interface ExportedRecord {
  task_id: string;
  epoch: number;
  attempts: number;
  outcome: string;
  error?: string;
  metadata: { worker?: { pid: number; host: string } };
}

async function exported(dir: string, id: string): Promise<{ status: string; records: ExportedRecord[] }> {
  const result = await cli(['runs', '--store', url, 'export', id], dir);
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
}

describe('run --queue and harnesseval worker', () => {
  it(
    'two workers, one SIGKILLed mid-trial: every (task, epoch) is stored once, the killed trial only by the retry',
    async () => {
      const { dir, marks } = await checkout(10);
      const queued = await cli(
        ['run', 'evals/suite.yaml', '--queue', url, '--epochs', '2', '--job-expiry', '3', '--detach'],
        dir,
      );
      expect(queued.stderr).toContain('queued 22 trials of experiment');
      expect(queued.status).toBe(0);
      const id = queued.stdout.trim();

      // Enqueuing again (a resumed coordinator) adds no job: nothing is stored twice below either.
      const again = await cli(['run', 'evals/suite.yaml', '--queue', url, '--resume', id, '--detach'], dir);
      expect(again.status).toBe(0);
      expect(again.stderr).toContain(`queued 22 trials of experiment ${id}`);

      const watch = startCli(['runs', '--store', url, 'watch', id], dir);
      const a = worker(dir, marks);
      const b = worker(dir, marks);
      const heldFile = join(marks, 'held');
      await waitFor(() => existsSync(heldFile), 60_000);
      await waitFor(async () => (await readFile(heldFile, 'utf8')).endsWith('}'), 5_000);
      const held = JSON.parse(await readFile(heldFile, 'utf8')) as {
        worker: number;
        agent: number;
        trial: string;
      };
      const [killed, survivor] = held.worker === a.child.pid ? [a, b] : [b, a];
      expect(killed.child.pid).toBe(held.worker);
      killed.child.kill('SIGKILL');
      await killed.done;
      // The harness it ran is gone too (the watchdog ends a SIGKILLed HarnessEval's processes).
      await waitFor(() => !alive(held.agent), 15_000).catch(() => process.kill(held.agent, 'SIGKILL'));

      const watched = await watch.done;
      expect(watched.stderr).not.toMatch(/\n\s+at /);
      expect(watched.stdout).toContain(`experiment ${id} completed`);
      expect(watched.status).toBe(0);
      // Finished: its jobs are gone from the queue (a worker or the watcher deleted them).
      expect(await jobRows(url, id)).toEqual({});

      const experiment = await exported(dir, id);
      expect(experiment.status).toBe('completed');
      const keys = experiment.records.map((r) => `${r.task_id}#${r.epoch}`);
      expect(keys).toHaveLength(22);
      expect(new Set(keys).size).toBe(22);
      const retried = experiment.records.find((r) => `${r.task_id}#${r.epoch}` === held.trial);
      // The interrupted trial was never recorded: its record is the retry's, by the other worker.
      expect(retried?.metadata.worker?.pid).toBe(survivor.child.pid);
      // The killed worker's trials that did finish are its own; none is attributed to it after the kill.
      expect(experiment.records.every((r) => r.metadata.worker?.pid !== undefined)).toBe(true);
      expect(retried?.attempts).toBeGreaterThanOrEqual(2);
      expect(
        experiment.records.filter((r) => r.outcome !== 'pass').map((r) => [r.task_id, r.epoch, r.error]),
      ).toEqual([]);

      survivor.child.kill('SIGTERM');
      const stopped = await survivor.done;
      expect(stopped.stderr).toContain('stopped; it stored');
      expect(stopped.status).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a trial retried after its worker committed the record but died before completing the job counts the retry in attempts',
    async () => {
      const { dir, marks } = await checkout(1);
      // Jobs expire after 10 minutes: only t0's, set below to a take of an hour ago, expires. With a
      // 2 s expiry `hang`'s job expired too, again and again, and its retries (each a trial that
      // hangs) could fill both of the worker's slots before t0's retry came: a 60 s wait that failed
      // on a loaded machine.
      const queued = await cli(
        ['run', 'evals/suite.yaml', '--queue', url, '--job-expiry', '600', '--detach'],
        dir,
      );
      expect(queued.status).toBe(0);
      const id = queued.stdout.trim();
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const t0 = async () =>
          (
            await db.query(
              `SELECT state, retry_count FROM harnesseval_queue.job WHERE data->>'experiment_id' = $1 AND data->>'task_id' = 't0'`,
              [id],
            )
          ).rows[0] as { state: string; retry_count: number } | undefined;
        const running = worker(dir, marks);
        // t0 is stored and its job completed; `hang` holds the worker's other slot.
        await waitFor(async () => (await t0())?.state === 'completed', 60_000);
        const first = (await exported(dir, id)).records.filter((r) => r.task_id === 't0');
        expect(first.map((r) => [r.task_id, r.attempts])).toEqual([['t0', 1]]);
        // What a worker SIGKILLed between its commit and its complete leaves: the record stored, the
        // job still taken (long ago). It expires, is taken again and the trial runs once more.
        await db.query(
          `UPDATE harnesseval_queue.job SET state = 'active', completed_on = NULL, started_on = now() - interval '1 hour'
           WHERE data->>'experiment_id' = $1 AND data->>'task_id' = 't0'`,
          [id],
        );
        await waitFor(async () => (await t0())?.state === 'completed', 60_000);
        expect((await t0())?.retry_count).toBe(1);
        // One record still (the first one wins), and it says the trial was attempted twice.
        const records = (await exported(dir, id)).records.filter((r) => r.task_id === 't0');
        expect(records.map((r) => [r.task_id, r.attempts])).toEqual([['t0', 2]]);
        running.child.kill('SIGKILL');
        await running.done;
      } finally {
        await db.end();
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a worker on another version of the suite refuses its jobs naming both hashes; cancel stops the rest; resume finishes it',
    async () => {
      const { dir, marks } = await checkout(4);
      await writeFile(join(marks, 'held'), '{}'); // no trial hangs here
      const queued = await cli(['run', 'evals/suite.yaml', '--queue', url, '--detach'], dir);
      expect(queued.status).toBe(0);
      const id = queued.stdout.trim();

      const other = await checkout(4, '# edited\n');
      const stale = worker(other.dir, other.marks);
      await waitFor(() => stale.stderr().includes('refusing experiment'), 60_000);
      expect(stale.stderr()).toMatch(
        /planned with suite evals\/suite\.yaml at hash \S+, but this checkout's file has hash \S+/,
      );
      stale.child.kill('SIGTERM');
      expect((await stale.done).status).toBe(0);

      const cancel = await cli(['runs', '--store', url, 'cancel', id], dir);
      expect(cancel.stderr).toContain(`cancelled 5 queued trials of experiment ${id}`);
      expect(cancel.status).toBe(0);
      const cancelled = await cli(['runs', '--store', url, 'watch', id], dir);
      expect(cancelled.stdout).toContain(`experiment ${id} interrupted`);
      expect(cancelled.status).toBe(1);
      expect((await exported(dir, id)).records).toHaveLength(0);

      // The coordinator follows by default and exits with the usual status and report.
      const resumed = startCli(
        ['run', 'evals/suite.yaml', '--queue', url, '--resume', id, '--no-progress'],
        dir,
      );
      const fresh = worker(dir, marks);
      const result = await resumed.done;
      expect(result.stderr).toContain(`queued 5 trials of experiment ${id}`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('hang');
      const experiment = await exported(dir, id);
      expect(experiment.status).toBe('completed');
      expect(experiment.records).toHaveLength(5);
      expect(await jobRows(url, id)).toEqual({});
      fresh.child.kill('SIGTERM');
      expect((await fresh.done).status).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  it('refuses a queue that is not PostgreSQL, and --detach with --watch', async () => {
    const { dir } = await checkout(1);
    const sqlite = await cli(['run', 'evals/suite.yaml', '--queue', 'queue.db'], dir);
    expect(sqlite.stderr).toContain('the queue needs a postgres:// URL, not queue.db');
    expect(sqlite.status).not.toBe(0);
    const both = await cli(['run', 'evals/suite.yaml', '--queue', url, '--detach', '--watch'], dir);
    expect(both.stderr).toContain('--detach and --watch contradict each other');
    expect(both.status).toBe(2);
  });
});
