import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteDatabase } from '../../../src/store/sqlite-driver.ts';
import { pageRowsSql } from '../../../src/store/sqlite-pages.ts';
import { SqliteStore } from '../../../src/store/sqlite-store.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';

const dir = mkdtempSync(join(tmpdir(), 'harnesseval-sqlite-pages-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite readRecordPages', () => {
  it("looks a page's rows up by rowid, not by a walk of the experiment's key range", async () => {
    const path = join(dir, 'plan.db');
    const store = new SqliteStore(path);
    const records = Array.from({ length: 50 }, (_, i) => makeRecord({ task_id: `t${i}` }));
    await store.createExperiment(makeExperiment({ id: 'exp-a', records }));
    await store.createExperiment(makeExperiment({ id: 'exp-b', records }));
    await store.close();
    const db = openSqliteDatabase(path, { readonly: true });
    try {
      for (const column of ['summary', 'document']) {
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${pageRowsSql(column)}`).all('exp-b', '[1,2,3]') as {
          detail: string;
        }[];
        const details = plan.map((row) => row.detail);
        expect(
          details.some((d) => /USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(d)),
          details.join('; '),
        ).toBe(true);
        expect(
          details.some((d) => /sqlite_autoindex_records/.test(d)),
          details.join('; '),
        ).toBe(false);
      }
      // Rows of another experiment are not in its pages, whatever rowids are asked for.
      const rowids = db.prepare('SELECT rowid FROM records').pluck().all() as number[];
      const rows = db.prepare(pageRowsSql('summary')).all('exp-b', JSON.stringify(rowids)) as {
        run_id: string;
      }[];
      expect(rows).toHaveLength(50);
    } finally {
      db.close();
    }
  });
});
