import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteDatabase, type SqliteDatabase } from '../../src/store/sqlite-driver.ts';
import { cli, ROOT, startCli, waitFor } from '../helpers/run-cli.ts';
import { scratch, seeded, writeBenchmark } from './helpers.ts';

// Resume runs exactly the missing trials of the stored plan — epochs, filters, seed — whatever
// killed the run and however often; the printed resume command is complete; contradicting
// flags are refused; and one process runs an experiment at a time.

const COUNTING = join(ROOT, 'test/fixtures/adversarial/counting-agent.mjs');
let dir = '';
let remove = async () => {};
beforeAll(async () => {
  ({ dir, remove } = await scratch('resume'));
});
afterAll(() => remove());

async function greetingSuite(name: string, tasks: number): Promise<string> {
  return writeBenchmark(
    dir,
    name,
    Array.from({ length: tasks }, (_, i) => {
      const n = String(i).padStart(2, '0');
      return { id: `t-${n}`, input: `Greet N${n}`, expected: `Hello, N${n}!` };
    }),
    { adapter: 'function', module: `${COUNTING}#counted` },
  );
}

interface Peek {
  readonly id: string;
  readonly status: string;
  readonly keys: string[];
}

function peek(db: string): Peek | undefined {
  let handle: SqliteDatabase | undefined;
  try {
    handle = openSqliteDatabase(db, { readonly: true, fileMustExist: true });
    const row = handle.prepare('SELECT id, status FROM experiments').get() as
      | { id: string; status: string }
      | undefined;
    if (row === undefined) return undefined;
    const keys = (
      handle.prepare('SELECT task_id, epoch FROM records WHERE experiment_id = ?').all(row.id) as {
        task_id: string;
        epoch: number;
      }[]
    ).map((r) => `${r.task_id}#${r.epoch}`);
    return { ...row, keys };
  } catch {
    return undefined;
  } finally {
    handle?.close();
  }
}

/** The printed resume command, as CLI arguments. */
function printedResume(stderr: string): string[] {
  const line = /resume with: harnesseval (.+)$/m.exec(stderr)?.[1];
  if (line === undefined) throw new Error(`no resume command in:\n${stderr}`);
  return line.split(' ');
}

const plan = (tasks: readonly string[], epochs: number) =>
  tasks.flatMap((t) => Array.from({ length: epochs }, (_, e) => `${t}#${e}`)).sort();

describe('resume follows the stored plan', () => {
  it('an --epochs 3 run resumed with the printed command completes all 3 epochs', async () => {
    const suite = await greetingSuite('epochs', 8);
    const db = join(dir, 'epochs.db');
    const run = startCli(['run', suite, '--epochs', '3', '-j', '2', '--store', db, '--no-progress'], dir);
    await waitFor(() => (peek(db)?.keys.length ?? 0) >= 5, 20_000);
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.status).toBe(130);
    const resumed = await cli(printedResume(stopped.stderr), dir);
    expect(resumed.status, resumed.stderr).toBe(0);
    const end = peek(db);
    expect(end?.status).toBe('completed');
    expect(end?.keys.sort()).toEqual(
      plan(
        Array.from({ length: 8 }, (_, i) => `t-0${i}`),
        3,
      ),
    );
  }, 60_000);

  it('a --filter-id run resumed with the printed command runs only the filtered tasks', async () => {
    const suite = await greetingSuite('filtered', 30);
    const db = join(dir, 'filtered.db');
    const run = startCli(
      ['run', suite, '--filter-id', 't-1*', '-j', '1', '--store', db, '--no-progress'],
      dir,
    );
    await waitFor(() => (peek(db)?.keys.length ?? 0) >= 3, 20_000);
    run.child.kill('SIGKILL');
    await run.done;
    const args = printedResumeFor(suite, peek(db)?.id ?? '', db);
    const resumed = await cli(args, dir);
    expect(resumed.status, resumed.stderr).toBe(0);
    const end = peek(db);
    expect(end?.status).toBe('completed');
    expect(end?.keys.sort()).toEqual(
      plan(
        Array.from({ length: 10 }, (_, i) => `t-1${i}`),
        1,
      ),
    );
  }, 60_000);

  it('refuses options that contradict the stored plan, and accepts the same values', async () => {
    const suite = await greetingSuite('contradict', 4);
    const db = join(dir, 'contradict.db');
    const run = startCli(
      ['run', suite, '--epochs', '3', '--seed', '7', '-j', '1', '--store', db, '--no-progress'],
      dir,
    );
    await waitFor(() => (peek(db)?.keys.length ?? 0) >= 2, 20_000);
    run.child.kill('SIGKILL');
    await run.done;
    const id = peek(db)?.id ?? '';
    const refused = await cli(
      ['run', suite, '--resume', id, '--store', db, '--epochs', '2', '--filter-id', 't-0*'],
      dir,
    );
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /contradict it: --epochs 2 \(it ran with 3\); --filter-id\/.* \{"id":"t-0\*"\} \(it ran with \{\}\)/,
    );
    const same = await cli(
      ['run', suite, '--resume', id, '--store', db, '--epochs', '3', '--seed', '7', '--no-progress'],
      dir,
    );
    expect(same.status, same.stderr).toBe(0);
    expect(peek(db)?.keys).toHaveLength(12);
  }, 60_000);
});

/** The command a SIGKILLed run would have printed (a killed process prints nothing). */
function printedResumeFor(suite: string, id: string, db: string): string[] {
  return ['run', suite, '--resume', id, '--store', db, '--no-progress'];
}

describe('one process runs an experiment at a time', () => {
  it('a second concurrent --resume refuses with the holder’s pid; every trial runs once', async () => {
    const suite = await greetingSuite('lease', 80);
    const db = join(dir, 'lease.db');
    const counts = join(dir, 'lease-calls.txt');
    await writeFile(counts, '');
    const first = startCli(['run', suite, '-j', '2', '--store', db, '--no-progress'], dir, {
      COUNT_FILE: counts,
    });
    await waitFor(() => (peek(db)?.keys.length ?? 0) >= 4, 20_000);
    first.child.kill('SIGKILL');
    await first.done;
    const id = peek(db)?.id ?? '';
    const a = startCli(['run', suite, '--resume', id, '-j', '2', '--store', db, '--no-progress'], dir, {
      COUNT_FILE: counts,
    });
    await waitFor(() => (peek(db)?.keys.length ?? 0) >= 8, 20_000);
    const b = await cli(['run', suite, '--resume', id, '-j', '2', '--store', db, '--no-progress'], dir, {
      COUNT_FILE: counts,
    });
    expect(b.status).toBe(2);
    expect(b.stderr).toMatch(new RegExp(`being run by another harnesseval \\(pid ${a.child.pid}`));
    expect((await a.done).status).toBe(0);
    const end = peek(db);
    expect(end?.status).toBe('completed');
    expect(new Set(end?.keys).size).toBe(80);
    // Each trial was asked of the agent once, plus at most the two in flight when the first run died.
    const calls = (await readFile(counts, 'utf8')).trim().split('\n');
    expect(calls.length).toBeLessThanOrEqual(80 + 2);
    expect(new Set(calls).size).toBe(80);
  }, 60_000);
});

describe('random SIGKILL and resume, repeated', () => {
  it('ends with every trial stored exactly once and the experiment completed (seeded)', async () => {
    const random = seeded(42);
    const suite = await greetingSuite('chain', 40);
    const db = join(dir, 'chain.db');
    const counts = join(dir, 'chain-calls.txt');
    await writeFile(counts, '');
    let kills = 0;
    // Five rounds killed at a random moment (start-up included), then one left to finish.
    for (let round = 0; round < 6; round++) {
      const id = peek(db)?.id;
      const args =
        id === undefined
          ? ['run', suite, '-j', '3', '--epochs', '2', '--store', db, '--no-progress']
          : ['run', suite, '--resume', id, '-j', '3', '--store', db, '--no-progress'];
      const run = startCli(args, dir, { COUNT_FILE: counts });
      const delay = 400 + random() * 1400;
      const timer =
        round < 5
          ? setTimeout(() => {
              kills++;
              run.child.kill('SIGKILL');
            }, delay)
          : undefined;
      const r = await run.done;
      clearTimeout(timer);
      if (r.status === 0) break;
    }
    const end = peek(db);
    expect(kills).toBeGreaterThan(0);
    expect(end?.status).toBe('completed');
    expect(end?.keys.length).toBe(80);
    expect(new Set(end?.keys).size).toBe(80);
    const calls = (await readFile(counts, 'utf8')).trim().split('\n');
    expect(new Set(calls).size).toBe(80);
    expect(calls.length).toBeLessThanOrEqual(80 + kills * 3);
  }, 120_000);
});
