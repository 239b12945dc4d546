import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { openSqliteDatabase } from '../../../src/store/sqlite-driver.ts';
import { SqliteStore } from '../../../src/store/sqlite-store.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';

// The SQLite store's group commit (sqlite-store.ts, commit-batcher.ts) on a real file: records
// arriving within BURST_MS (1 ms) of the last commit wait one turn of the event loop and go in one
// transaction; a record after a quiet spell is committed at once. What was committed is read from
// the file itself: each transaction ends with one commit frame in the WAL. The store's clock
// (`performance.now`) is faked, so "within 1 ms" and "after a quiet spell" do not depend on how
// loaded the machine is.

/** Transactions committed to the WAL file since it was last reset (its commit frames). */
function walCommits(path: string): number {
  const wal = readFileSync(`${path}-wal`);
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    // A frame of an older generation of the WAL (before a checkpoint reset it) ends the log.
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    // Bytes 4-7 of a frame header: the database size after the commit, 0 for other frames.
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return commits;
}

const TASKS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const record = (task: string, runId = `run-${task}`) =>
  makeRecord({ experiment_id: 'exp-burst', task_id: task, epoch: 0, run_id: runId });

let dir = '';
let files = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-burst-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A store on a new file holding experiment `exp-burst` and one record (`a`), and the file's path. */
async function storeWithOneRecord(): Promise<{ store: SqliteStore; path: string }> {
  files += 1;
  const path = join(dir, `burst-${files}.db`);
  const store = new SqliteStore(path);
  const experiment = makeExperiment({ id: 'exp-burst' });
  await store.createExperiment({
    ...experiment,
    suite: { ...experiment.suite, tasks: TASKS.map((id) => ({ id, weight: 1 })) },
  });
  // The clock stands still from here: every later record arrives "within 1 ms" of a commit,
  // until a test moves it on.
  vi.useFakeTimers({ toFake: ['performance'] });
  await store.appendRecord('exp-burst', record('a'));
  return { store, path };
}

/** Each record appended from its own callback of one turn of the loop, as trials finishing together. */
function arriveTogether(
  store: SqliteStore,
  records: readonly ReturnType<typeof record>[],
): Promise<unknown>[] {
  return records.map(
    (r) =>
      new Promise<unknown>((resolve) => {
        setImmediate(() =>
          resolve(
            store.appendRecord('exp-burst', r).then(
              () => 'stored',
              (e: unknown) => e,
            ),
          ),
        );
      }),
  );
}

async function storedTasks(path: string): Promise<string[]> {
  const db = openSqliteDatabase(path, { readonly: true });
  try {
    return (db.prepare('SELECT task_id FROM records ORDER BY task_id').pluck().all() as string[]).sort();
  } finally {
    db.close();
  }
}

describe('SqliteStore group commit (the burst rule)', () => {
  it('commits the records of a burst in one transaction', async () => {
    const { store, path } = await storeWithOneRecord();
    const before = walCommits(path);
    const results = await Promise.all(
      arriveTogether(
        store,
        ['b', 'c', 'd', 'e', 'f'].map((t) => record(t)),
      ),
    );
    expect(results).toEqual(Array(5).fill('stored'));
    expect(walCommits(path) - before).toBe(1);
    await store.close();
    expect(await storedTasks(path)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('commits a lone record at once: before the next turn of the loop, in its own transaction', async () => {
    const { store, path } = await storeWithOneRecord();
    // A quiet spell: the last commit is 5 ms old.
    vi.advanceTimersByTime(5);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const before = walCommits(path);
    await store.appendRecord('exp-burst', record('b'));
    expect(turned).toBe(false);
    expect(walCommits(path) - before).toBe(1);
    // The same record within 1 ms of that commit waits for the turn (a burst may be arriving).
    await store.appendRecord('exp-burst', record('c'));
    expect(turned).toBe(true);
    // After a quiet spell records arriving together: the first goes at once, the rest in one batch.
    vi.advanceTimersByTime(5);
    const mid = walCommits(path);
    await Promise.all(
      arriveTogether(
        store,
        ['d', 'e', 'f'].map((t) => record(t)),
      ),
    );
    expect(walCommits(path) - mid).toBe(2);
    await store.close();
    expect(await storedTasks(path)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('a burst that ends at close() is committed whole before the file closes; later appends fail', async () => {
    const { store, path } = await storeWithOneRecord();
    // d and e arrive in the turn the burst waits for, after close() was called.
    const late = arriveTogether(store, [record('d'), record('e')]);
    const early = ['b', 'c'].map((t) => store.appendRecord('exp-burst', record(t)).then(() => 'stored'));
    const closing = store.close();
    expect(await Promise.all([...early, ...late])).toEqual(Array(4).fill('stored'));
    await closing;
    const after = await store.appendRecord('exp-burst', record('f')).catch((e: unknown) => e);
    expect(HarnessEvalError.is(after) && after.code).toBe('store');
    expect(String((after as Error).message)).toContain('is closed');
    expect(await storedTasks(path)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('one insert of a burst failing fails only its own append; the others are committed, and the next burst too', async () => {
    const { store, path } = await storeWithOneRecord();
    // A real SQLite error on one row, from the file's own schema.
    const db = openSqliteDatabase(path);
    db.exec(
      `CREATE TRIGGER refuse_one BEFORE INSERT ON records WHEN NEW.run_id = 'run-refused'
       BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
    db.close();
    const results = await Promise.all(
      arriveTogether(store, [record('b'), record('c', 'run-refused'), record('d'), record('e')]),
    );
    expect(results.filter((r) => r === 'stored')).toHaveLength(3);
    const failure = results[1];
    expect(HarnessEvalError.is(failure) && failure.code).toBe('store');
    expect(String((failure as Error).message)).toContain('refused by the test');
    const before = walCommits(path);
    expect(await Promise.all(arriveTogether(store, [record('f'), record('g')]))).toEqual([
      'stored',
      'stored',
    ]);
    expect(walCommits(path) - before).toBe(1);
    await store.close();
    expect(await storedTasks(path)).toEqual(['a', 'b', 'd', 'e', 'f', 'g']);
  });
});
