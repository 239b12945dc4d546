import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { defaultStorePath, openStore } from '../../../src/store/index.ts';
import { exportExperiment } from '../../../src/store/json-io.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { SCHEMA_VERSION } from '../../../src/store/migrations.ts';
import { openSqliteDatabase } from '../../../src/store/sqlite-driver.ts';
import { SqliteStore } from '../../../src/store/sqlite-store.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';

let dir = '';
let count = 0;
const fresh = () => {
  count += 1;
  return join(dir, `db-${count}`, 'harnesseval.db');
};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-sqlite-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function storeError(fn: () => unknown): Promise<HarnessEvalError> {
  try {
    await fn();
  } catch (error) {
    if (HarnessEvalError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a HarnessEvalError');
}

describe('opening a SQLite store', () => {
  it('creates the folder and file, in WAL mode (synchronous NORMAL: survives a killed process) with the current schema', async () => {
    const path = fresh();
    const store = await openStore(path);
    expect(store).toBeInstanceOf(SqliteStore);
    await store.createExperiment(makeExperiment());
    const raw = openSqliteDatabase(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
    if (!(store instanceof SqliteStore)) throw new Error('not sqlite');
    // synchronous and busy_timeout are per connection, so ask the store's own. A statement waits
    // 100 ms for a lock (the wait blocks); the store retries it, without blocking, for 30 s.
    expect(store.settings()).toEqual({
      journal_mode: 'wal',
      synchronous: 1,
      busy_timeout: 100,
      schema_version: SCHEMA_VERSION,
      cache_size: -4096,
    });
    await store.close();
  });

  it('fsyncs every commit, surviving power loss too, when asked (durability: full)', async () => {
    const store = new SqliteStore(fresh(), { durability: 'full', busyTimeoutMs: 40 });
    expect(store.settings()).toMatchObject({ synchronous: 2, busy_timeout: 40 });
    await store.close();
  });

  it('keeps what was stored across close and reopen, and migrates only once', async () => {
    const path = fresh();
    const first = new SqliteStore(path);
    await first.createExperiment(makeExperiment({ records: [makeRecord()] }));
    await first.close();
    const second = new SqliteStore(path);
    expect((await second.getExperiment('exp-0001'))?.records).toHaveLength(1);
    await second.close();
  });

  it('reads no annotations from a version-3 file opened read-only, and migrates it when opened for writing', async () => {
    const path = fresh();
    const first = new SqliteStore(path);
    await first.createExperiment(makeExperiment({ records: [makeRecord()] }));
    await first.close();
    const raw = openSqliteDatabase(path);
    raw.exec(
      'DROP TABLE annotations; ALTER TABLE records DROP COLUMN finished_at; ALTER TABLE records DROP COLUMN summary;',
    );
    raw.pragma('user_version = 3');
    raw.close();
    const reader = new SqliteStore(path, { readonly: true });
    expect(await reader.listAnnotations('exp-0001')).toEqual([]);
    const writer = new SqliteStore(path);
    await writer.addAnnotation('exp-0001', { run_id: 'alpha#0', label: 'seen', author: 'Ada' });
    await writer.close();
    expect((await reader.listAnnotations('exp-0001')).map((a) => a.label)).toEqual(['seen']);
    await reader.close();
  });

  it('reads a version-5 file (summaries without a time, no finish column) and migrates it when opened for writing', async () => {
    const path = fresh();
    const first = new SqliteStore(path);
    await first.createExperiment(
      makeExperiment({ records: [makeRecord(), makeRecord({ task_id: 'bravo', duration_seconds: 90 })] }),
    );
    await first.close();
    // Put the file back as version 5 wrote it: the summary held no timestamp, no finish column.
    const raw = openSqliteDatabase(path);
    raw.exec(
      "ALTER TABLE records DROP COLUMN finished_at; UPDATE records SET summary = json_remove(summary, '$.timestamp');",
    );
    raw.pragma('user_version = 5');
    raw.close();
    const reader = new SqliteStore(path, { readonly: true });
    const old = await reader.listRecordSummaries('exp-0001');
    // Read from the documents: the same times as a new row's.
    expect(old.map((s) => [s.task_id, s.timestamp, s.finished_at])).toEqual([
      ['alpha', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.250Z'],
      ['bravo', '2026-01-01T00:00:00.000Z', '2026-01-01T00:01:30.000Z'],
    ]);
    // Without the column no finish time is known to the store: every row reads as new.
    expect(await reader.countRecords('exp-0001', { finishedAfter: '2030-01-01T00:00:00.000Z' })).toBe(2);
    const writer = new SqliteStore(path);
    expect(writer.settings().schema_version).toBe(SCHEMA_VERSION);
    await writer.appendRecord('exp-0001', makeRecord({ task_id: 'charlie', duration_seconds: 3600 }));
    await writer.close();
    const after = new SqliteStore(path, { readonly: true });
    // The old rows have no finish time (always new); the new one is compared.
    expect(
      (await after.listRecordSummaries('exp-0001', { finishedAfter: '2026-01-01T00:30:00.000Z' })).map(
        (s) => s.task_id,
      ),
    ).toEqual(['alpha', 'bravo', 'charlie']);
    expect(
      (await after.listRecordSummaries('exp-0001', { finishedAfter: '2026-01-01T02:00:00.000Z' })).map(
        (s) => s.task_id,
      ),
    ).toEqual(['alpha', 'bravo']);
    await after.close();
    await reader.close();
  });

  it('migrates a version-1 file: the per-record index is dropped and records still read in file order', async () => {
    const path = fresh();
    const first = new SqliteStore(path);
    await first.createExperiment(makeExperiment({ records: [] }));
    for (const task of ['charlie', 'alpha', 'bravo'])
      await first.appendRecord('exp-0001', makeRecord({ task_id: task }));
    await first.close();
    // Put the file back as version 1 wrote it.
    const raw = openSqliteDatabase(path);
    raw.exec('CREATE INDEX records_in_file_order ON records (experiment_id, task_index, task_id, epoch)');
    raw.exec(
      'DROP TABLE leases; DROP TABLE child_processes; DROP TABLE annotations; ALTER TABLE records DROP COLUMN finished_at; ALTER TABLE records DROP COLUMN summary;',
    );
    raw.pragma('user_version = 1');
    raw.close();
    const reopened = new SqliteStore(path);
    expect(reopened.settings().schema_version).toBe(SCHEMA_VERSION);
    const order = (await reopened.getExperiment('exp-0001'))?.records.map((r) => r.task_id);
    // Rows from before the summary column are summarised from their documents.
    const summaries = await reopened.listRecordSummaries('exp-0001');
    expect(summaries.map((s) => [s.task_id, s.outcome, s.duration_seconds])).toEqual([
      ['alpha', 'pass', 0.25],
      ['bravo', 'pass', 0.25],
      ['charlie', 'pass', 0.25],
    ]);
    await reopened.close();
    const check = openSqliteDatabase(path, { readonly: true });
    const indexes = check
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records'")
      .all();
    check.close();
    expect(indexes).not.toContainEqual({ name: 'records_in_file_order' });
    expect(order).toEqual(['alpha', 'bravo', 'charlie']);
  });

  it('defaults to .harnesseval/harnesseval.db under the working folder', () => {
    expect(defaultStorePath('/work/project')).toBe(join('/work/project', '.harnesseval', 'harnesseval.db'));
  });

  it('opens an in-memory store for :memory:', async () => {
    const store = await openStore(':memory:');
    expect(store).toBeInstanceOf(MemoryStore);
    await store.close();
  });

  it('fails with not_found, creating nothing, when the file must exist and does not', async () => {
    const path = join(dir, 'absent', 'harnesseval.db');
    const error = await storeError(() => openStore(path, { mustExist: true }));
    expect(error.code).toBe('not_found');
    expect(existsSync(join(dir, 'absent'))).toBe(false);
  });

  it('fails with a store error on a file that is not a database', async () => {
    const path = join(dir, 'garbage.db');
    await writeFile(
      path,
      'this is not sqlite, just some text that is long enough to have a header'.repeat(10),
    );
    const error = await storeError(() => new SqliteStore(path));
    expect(error.code).toBe('store');
    expect(error.message).toContain(path);
  });

  it('refuses a file written by a newer schema version', async () => {
    const path = fresh();
    await mkdir(join(path, '..'), { recursive: true });
    const raw = openSqliteDatabase(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const error = await storeError(() => new SqliteStore(path));
    expect(error.code).toBe('store');
    expect(error.message).toMatch(/newer/);
  });
});

describe('reading damaged rows', () => {
  const damage = async (sql: string) => {
    const path = fresh();
    const store = new SqliteStore(path);
    await store.createExperiment(
      makeExperiment({ records: [makeRecord(), makeRecord({ task_id: 'bravo' })] }),
    );
    await store.close();
    const raw = openSqliteDatabase(path);
    raw.exec(sql);
    raw.close();
    return new SqliteStore(path);
  };

  it('names the experiment and run of a record that breaks the schema', async () => {
    const store = await damage(
      `UPDATE records SET document = '{"run_id":"bravo#0","outcome":"maybe"}' WHERE run_id = 'bravo#0'`,
    );
    const error = await storeError(() => store.getExperiment('exp-0001'));
    await store.close();
    expect(error.code).toBe('store');
    expect(error.message).toContain('run bravo#0 of experiment exp-0001');
    expect(error.message).toContain('outcome');
  });

  it('names the run of a record that is not JSON', async () => {
    const store = await damage(`UPDATE records SET document = '{not json' WHERE run_id = 'alpha#0'`);
    const error = await storeError(() => store.getExperiment('exp-0001'));
    await store.close();
    expect(error.code).toBe('store');
    expect(error.message).toContain('run alpha#0 of experiment exp-0001');
  });

  it('names the experiment whose document is damaged', async () => {
    const store = await damage(`UPDATE experiments SET document = '{"id":"exp-0001","status":"done"}'`);
    const error = await storeError(() => store.getExperiment('exp-0001'));
    expect(error.code).toBe('store');
    expect(error.message).toContain('experiment exp-0001');
    const append = await storeError(() => store.appendRecord('exp-0001', makeRecord({ task_id: 'charlie' })));
    expect(append.code).toBe('store');
    await store.close();
  });

  it('refuses to update a stored document that is not a JSON object with its id', async () => {
    for (const document of ['not json', '{"id":"someone-else"}', '[1]']) {
      const store = await damage(`UPDATE experiments SET document = '${document}'`);
      const error = await storeError(() => store.updateExperiment('exp-0001', { status: 'failed' }));
      expect(error.code).toBe('store');
      expect(error.message).toContain('stored experiment exp-0001 is corrupt');
      await store.close();
    }
  });

  it('fails listing on a summary row with an unknown status', async () => {
    const store = await damage(`UPDATE experiments SET status = 'exploded'`);
    const error = await storeError(() => store.listExperiments());
    await store.close();
    expect(error.code).toBe('store');
    expect(error.message).toContain('exp-0001');
  });
});

describe('secrets on disk', () => {
  it('never writes a secret environment value to the database files or an export', async () => {
    const secret = 'ghp_Secr3tT0kenValue_XYZ';
    const env = { GITHUB_TOKEN: secret };
    const path = fresh();
    const store = new SqliteStore(path, { env });
    await store.createExperiment(
      makeExperiment({
        harness: {
          name: 'h',
          version: '1',
          adapter: 'http',
          options: { headers: { Authorization: `token ${secret}` } },
          agents: [],
          metadata: {},
          schema_version: 1,
        },
      }),
    );
    await store.appendRecord(
      'exp-0001',
      makeRecord({ error: `401 for ${secret}`, outcome: 'error', output: { output: secret } }),
    );
    await store.updateExperiment('exp-0001', { metadata: { seen: secret } });
    const exportFile = join(dir, 'secret-export.json');
    await exportExperiment(store, 'exp-0001', exportFile, { env });
    // Read the bytes while the connection is open (WAL holds the recent commits) and after close.
    const bytesOf = async () => {
      const folder = join(path, '..');
      const files = await readdir(folder);
      return Buffer.concat(await Promise.all(files.map((f) => readFile(join(folder, f)))));
    };
    const whileOpen = await bytesOf();
    await store.close();
    const afterClose = await bytesOf();
    expect(whileOpen.includes('[REDACTED:GITHUB_TOKEN]')).toBe(true);
    expect(whileOpen.includes(secret)).toBe(false);
    expect(afterClose.includes(secret)).toBe(false);
    const exported = await readFile(exportFile, 'utf8');
    expect(exported).not.toContain(secret);
    expect(exported).toContain('token [REDACTED:GITHUB_TOKEN]');
  });
});

describe('another process holding the write lock', () => {
  it('waits without blocking and writes once the lock is free', async () => {
    const path = fresh();
    const store = new SqliteStore(path, { busyTimeoutMs: 10_000 });
    await store.createExperiment(makeExperiment({ records: [] }));
    const other = openSqliteDatabase(path);
    other.exec('BEGIN IMMEDIATE');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    setTimeout(() => other.exec('COMMIT'), 600);
    await store.appendRecord('exp-0001', makeRecord());
    clearInterval(ticker);
    other.close();
    expect(ticks).toBeGreaterThan(5); // the event loop ran while the write waited
    expect((await store.getExperiment('exp-0001'))?.records).toHaveLength(1);
    await store.close();
  });

  it('fails with a store error marked busy once the wait is over', async () => {
    const path = fresh();
    const store = new SqliteStore(path, { busyTimeoutMs: 300 });
    await store.createExperiment(makeExperiment({ records: [] }));
    const other = openSqliteDatabase(path);
    other.exec('BEGIN IMMEDIATE');
    const error = await store.appendRecord('exp-0001', makeRecord()).catch((e: unknown) => e);
    other.exec('ROLLBACK');
    other.close();
    expect(HarnessEvalError.is(error) && error.code).toBe('store');
    expect(HarnessEvalError.is(error) && error.data['busy']).toBe(true);
    expect(String((error as Error).message)).toMatch(/held the write lock for more than 0\.3 s/);
    await store.close();
  });
});

describe('read-only opening', () => {
  it('reads without creating, migrating or writing anything', async () => {
    const path = fresh();
    const writer = new SqliteStore(path);
    await writer.createExperiment(makeExperiment({ records: [makeRecord()] }));
    await writer.close();
    const before = await readFile(path);
    const reader = new SqliteStore(path, { readonly: true });
    expect((await reader.listExperiments()).map((e) => e.id)).toEqual(['exp-0001']);
    const error = await reader.deleteExperiment('exp-0001').catch((e: unknown) => e);
    expect(HarnessEvalError.is(error) && error.code).toBe('store');
    await reader.close();
    // (SQLite's WAL reader may leave -wal/-shm beside the file; the database itself is untouched.)
    expect((await readFile(path)).equals(before)).toBe(true);
  });

  it('says so for a missing file and for an empty one, creating nothing', async () => {
    const missing = fresh();
    expect(() => new SqliteStore(missing, { readonly: true })).toThrow(/no store at/);
    expect(existsSync(missing)).toBe(false);
    const empty = join(dir, 'empty.db');
    await writeFile(empty, '');
    expect(() => new SqliteStore(empty, { readonly: true })).toThrow(/holds no HarnessEval store/);
    expect((await readFile(empty)).length).toBe(0);
  });
});
