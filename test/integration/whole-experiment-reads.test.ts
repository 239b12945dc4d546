import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CliIO } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/main.ts';
import { GRADE_COLUMNS } from '../../src/reporters/grades-export.ts';
import { RECORD_PAGE_SIZE } from '../../src/store/record-pages.ts';
import { SqliteStore } from '../../src/store/sqlite-store.ts';
import type { RecordQuery } from '../../src/store/types.ts';
import { startViewer } from '../../src/viewer/server.ts';
import { makeExperiment, makeRecord } from '../helpers/experiments.ts';

// Readers that need every record, or none, on a real SQLite file, in process so that the store's
// reads can be counted: `grade export` and the viewer's grades download read an experiment of 2.5
// pages of records a page at a time, and the live stream names its experiment from the document,
// never reading the experiment whole (they all read it with getExperiment before).
const ID = 'exp-20261202-pages';
const TRIALS = Math.round(RECORD_PAGE_SIZE * 2.5);

class Text extends Writable {
  text = '';
  override _write(chunk: unknown, _encoding: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    done();
  }
}

let dir = '';
let path = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-grade-reads-'));
  path = join(dir, 'store.db');
  const records = Array.from({ length: TRIALS }, (_, i) =>
    makeRecord({
      task_id: ['alpha', 'bravo', 'charlie'][i % 3] ?? 'alpha',
      epoch: Math.floor(i / 3),
      criteria: [
        {
          id: 'ac-01',
          verification: 'rubric',
          status: 'passed',
          score: 1,
          explanation: '',
          grades: [
            {
              dimension: 'clarity',
              level: 3,
              score: 2 / 3,
              rationale: `trial ${i}`,
              grader: 'Ann',
              grader_kind: 'human',
              graded_at: '2026-12-01T10:00:00.000Z',
            },
          ],
        },
      ],
    }),
  );
  const store = new SqliteStore(path);
  await store.createExperiment(makeExperiment({ id: ID, records }));
  await store.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Spies on every SqliteStore's whole-experiment read and record reads (what each returned). */
function countReads() {
  const whole = vi.spyOn(SqliteStore.prototype, 'getExperiment');
  const reads: { query: RecordQuery; returned: number }[] = [];
  const listRecords = SqliteStore.prototype.listRecords;
  vi.spyOn(SqliteStore.prototype, 'listRecords').mockImplementation(async function (
    this: SqliteStore,
    id: string,
    query: RecordQuery = {},
  ) {
    const records = await listRecords.call(this, id, query);
    reads.push({ query, returned: records.length });
    return records;
  });
  return { whole, reads };
}

function expectPaged(counted: ReturnType<typeof countReads>): void {
  expect(counted.whole).not.toHaveBeenCalled();
  expect(counted.reads.length).toBeGreaterThanOrEqual(3);
  for (const read of counted.reads) {
    expect(read.returned).toBeLessThanOrEqual(RECORD_PAGE_SIZE);
    expect(read.query.limit).toBe(RECORD_PAGE_SIZE);
  }
  expect(counted.reads.reduce((n, r) => n + r.returned, 0)).toBe(TRIALS);
}

function cliIO(): CliIO & { stdout: Text; stderr: Text } {
  return { stdout: new Text(), stderr: new Text(), env: {}, cwd: dir, debug: false };
}

/** A viewer over the file opened read-only, given to `use`, then closed. */
async function withViewer(use: (origin: string) => Promise<void>): Promise<void> {
  const store = new SqliteStore(path, { readonly: true, mustExist: true });
  const viewer = await startViewer({
    store,
    openWritableStore: async () => new SqliteStore(path),
    token: 't'.repeat(32),
    host: '127.0.0.1',
    port: 0,
    livePollMs: 50,
  });
  try {
    await use(viewer.origin);
  } finally {
    await viewer.close();
    await store.close();
  }
}

describe('the grades export reads records a page at a time', () => {
  it('grade export: every grade, from pages of at most RECORD_PAGE_SIZE records', async () => {
    const counted = countReads();
    const io = cliIO();
    expect(await runCli(['grade', 'export', ID, '--store', path], io)).toBe(0);
    expect(io.stderr.text).toBe('');
    const lines = io.stdout.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(GRADE_COLUMNS.join(','));
    expect(lines).toHaveLength(TRIALS + 1);
    expect(new Set(lines.slice(1).map((line) => line.split(',')[10])).size).toBe(TRIALS);
    expectPaged(counted);
  });

  it('the viewer download: the same file, read the same way', async () => {
    await withViewer(async (origin) => {
      const counted = countReads();
      const response = await fetch(`${origin}/experiments/${ID}/grades.csv`);
      expect(response.status).toBe(200);
      const text = await response.text();
      expectPaged(counted);
      vi.restoreAllMocks();
      const io = cliIO();
      expect(await runCli(['grade', 'export', ID, '--store', path], io)).toBe(0);
      expect(text).toBe(io.stdout.text);
    });
  });
});

describe('the live stream', () => {
  it('resolves its experiment without reading every record', async () => {
    await withViewer(async (origin) => {
      const counted = countReads();
      const stop = new AbortController();
      const response = await fetch(`${origin}/experiments/${ID.slice(0, -2)}/events`, {
        signal: stop.signal,
      });
      expect(response.status).toBe(200);
      const reader = response.body?.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (reader !== undefined && !text.includes('event: progress')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      stop.abort();
      // The unique prefix was resolved: progress of this experiment's trials, not `gone`.
      expect(text).toContain('event: progress');
      expect(text).toContain(String(TRIALS));
      expect(counted.whole).not.toHaveBeenCalled();
    });
  });
});
