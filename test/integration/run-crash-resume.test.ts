import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExperimentSchema } from '../../src/core/experiment.ts';
import { openSqliteDatabase, type SqliteDatabase } from '../../src/store/sqlite-driver.ts';
import { cli, ROOT, startCli, waitFor } from '../helpers/run-cli.ts';

// A run killed mid-way keeps every finished trial (each is committed as it ends), and `--resume`
// runs exactly the missing ones. 30 trials of ~100 ms at -j 2 take about 1.5 s.
const SUITE = join(ROOT, 'test/fixtures/run/slow.yaml');
const TRIALS = 30;

let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-crash-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Records and status of the one experiment in the store, read while the run writes (WAL). */
function peek(db: string): { id: string; status: string; records: number } | undefined {
  let handle: SqliteDatabase | undefined;
  try {
    handle = openSqliteDatabase(db, { readonly: true, fileMustExist: true });
    const row = handle.prepare('SELECT id, status FROM experiments').get() as
      | { id: string; status: string }
      | undefined;
    if (row === undefined) return undefined;
    const { n } = handle.prepare('SELECT count(*) AS n FROM records WHERE experiment_id = ?').get(row.id) as {
      n: number;
    };
    return { ...row, records: n };
  } catch {
    return undefined; // not created yet, or mid-migration
  } finally {
    handle?.close();
  }
}

async function exported(id: string, db: string, dir: string) {
  const file = join(dir, `${id}.json`);
  const r = await cli(['runs', 'export', id, '-o', file, '--store', db], dir);
  expect(r.status, r.stderr).toBe(0);
  return ExperimentSchema.parse(JSON.parse(await readFile(file, 'utf8')));
}

function expectEveryTrialOnce(experiment: ReturnType<typeof ExperimentSchema.parse>): void {
  const keys = experiment.records.map((r) => `${r.task_id}#${r.epoch}`);
  expect(new Set(keys).size).toBe(keys.length);
  expect(keys).toHaveLength(TRIALS);
  expect(keys.sort()).toEqual(
    Array.from({ length: TRIALS }, (_, i) => `greet-${String(i).padStart(2, '0')}#0`),
  );
  expect(experiment.records.every((r) => r.outcome === 'pass')).toBe(true);
}

describe('harnesseval run: crash and resume', () => {
  it('resumes a SIGKILLed run: every trial present exactly once, experiment completed', async () => {
    const dir = await mkdtemp(join(root, 'kill-'));
    const db = join(dir, 'db.sqlite');
    const run = startCli(['run', SUITE, '-j', '2', '--store', db, '--no-progress'], dir);
    await waitFor(() => (peek(db)?.records ?? 0) >= 4, 20_000);
    run.child.kill('SIGKILL');
    const killed = await run.done;
    expect(killed.signal).toBe('SIGKILL');
    const before = peek(db);
    expect(before?.status).toBe('running');
    expect(before?.records).toBeGreaterThanOrEqual(4);
    expect(before?.records).toBeLessThan(TRIALS);

    const resumed = await cli(
      ['run', SUITE, '-j', '2', '--store', db, '--resume', before?.id ?? '', '--no-progress'],
      dir,
    );
    expect(resumed.status, resumed.stderr).toBe(0);
    const experiment = await exported(before?.id ?? '', db, dir);
    expect(experiment.status).toBe('completed');
    expectEveryTrialOnce(experiment);
  }, 60_000);

  it('stops on SIGINT after in-flight trials, prints the resume command, exits 130; resume completes it', async () => {
    const dir = await mkdtemp(join(root, 'int-'));
    const db = join(dir, 'db.sqlite');
    const run = startCli(['run', SUITE, '-j', '2', '--store', db, '--no-progress'], dir);
    await waitFor(() => (peek(db)?.records ?? 0) >= 4, 20_000);
    run.child.kill('SIGINT');
    const interrupted = await run.done;
    expect(interrupted.status).toBe(130);
    const state = peek(db);
    expect(state?.status).toBe('interrupted');
    expect(state?.records).toBeLessThan(TRIALS);
    expect(interrupted.stderr).toContain(`resume with: harnesseval run ${SUITE} --resume ${state?.id}`);
    // The in-flight trials finished normally: none was cut off.
    const partial = await exported(state?.id ?? '', db, dir);
    expect(partial.records.every((r) => r.outcome === 'pass')).toBe(true);

    const resumed = await cli(
      ['run', SUITE, '-j', '2', '--store', db, '--resume', state?.id ?? '', '--no-progress'],
      dir,
    );
    expect(resumed.status, resumed.stderr).toBe(0);
    const experiment = await exported(state?.id ?? '', db, dir);
    expect(experiment.status).toBe('completed');
    expectEveryTrialOnce(experiment);
  }, 60_000);

  it('exits at once on a second SIGINT, keeping every trial that had finished', async () => {
    const dir = await mkdtemp(join(root, 'twice-'));
    const db = join(dir, 'db.sqlite');
    const stuck = join(ROOT, 'test/fixtures/run/stuck.yaml');
    const run = startCli(['run', stuck, '-j', '2', '--store', db, '--no-progress'], dir);
    await waitFor(() => (peek(db)?.records ?? 0) >= 1, 20_000);
    run.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = Date.now();
    run.child.kill('SIGINT');
    const result = await run.done;
    // The stuck trials would take a minute and the grace period is 5 s: exiting well before
    // either shows the second signal ended the run at once.
    expect(Date.now() - second).toBeLessThan(4000);
    expect(result.status).toBe(130);
    expect(result.stderr).toMatch(/stopping now/);
    expect(result.stderr).toMatch(/interrupted; resume with: harnesseval run .*stuck\.yaml --resume exp-/);
    expect(peek(db)?.records).toBe(1);
    // The second signal no longer skips the bookkeeping: the experiment says it was interrupted.
    expect(peek(db)?.status).toBe('interrupted');
  }, 60_000);

  it('refuses to resume an experiment with --no-store (exit 2)', async () => {
    const r = await cli(['run', SUITE, '--no-store', '--resume', 'exp-anything'], root);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--resume needs a store/);
  });
});
