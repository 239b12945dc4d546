import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { PostgresStore } from '../../../src/store/postgres-store.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';
import { adminQuery, createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../../helpers/postgres.ts';

/**
 * `readRecordPages` on PostgreSQL holds nothing between pages: a resume reads its kept records as
 * its run reaches them, for hours, and a transaction open that long would hold back VACUUM on the
 * whole server and keep a pooled connection from the run.
 */

let url = '';
let database = '';
let count = 0;
const opened: PostgresStore[] = [];
beforeAll(async () => {
  url = await createTestDatabase();
  database = new URL(url).pathname.slice(1);
}, POSTGRES_SETUP_TIMEOUT_MS);
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

async function seeded(tasks: number): Promise<PostgresStore> {
  const store = await PostgresStore.open(url, { schema: `pages_${++count}`, env: {} });
  opened.push(store);
  const ids = Array.from({ length: tasks }, (_, i) => `t${String(tasks - i).padStart(4, '0')}`);
  const experiment = makeExperiment({ suite: { id: 's', tasks: ids.map((id) => ({ id })) } });
  await store.createExperiment({
    ...experiment,
    records: ids.map((id) => makeRecord({ task_id: id, run_id: `${id}#0` })),
  });
  return store;
}

/** The sessions of the test database that sit in an open transaction, other than this query's. */
async function openTransactions(): Promise<number> {
  const { rows } = await adminQuery(
    `SELECT count(*)::integer AS n FROM pg_stat_activity
     WHERE datname = $1 AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`,
    'postgres',
    [database],
  );
  return (rows[0] as { n: number }).n;
}

describe('PostgreSQL record pages', () => {
  it('holds no transaction while the reader works on a page, and reads in suite order', async () => {
    const store = await seeded(25);
    const order = (await store.getExperiment('exp-0001'))?.records.map((r) => r.run_id);
    const seen: string[] = [];
    const open: number[] = [];
    await store.readRecordPages(
      'exp-0001',
      async (page) => {
        seen.push(...page.map((r) => r.run_id));
        open.push(await openTransactions());
      },
      { pageSize: 10 },
    );
    expect(seen).toEqual(order);
    expect(open).toEqual([0, 0, 0]);
  });

  it('hands over the records there were when the read began: one written between pages waits for the next read', async () => {
    const store = await seeded(6);
    const pages: RunRecord[][] = [];
    await store.readRecordPages(
      'exp-0001',
      async (page) => {
        pages.push(page);
        if (pages.length === 1)
          await store.appendRecord('exp-0001', makeRecord({ task_id: 'late', run_id: 'late#0' }));
      },
      { pageSize: 2, whole: true },
    );
    expect(pages.flat()).toHaveLength(6);
    expect(pages.flat().some((r) => r.run_id === 'late#0')).toBe(false);
    const again: RunRecord[] = [];
    await store.readRecordPages('exp-0001', (page) => void again.push(...page));
    expect(again.map((r) => r.run_id)).toContain('late#0');
  });

  it('reads each page through the run-id index, not a scan of the experiment', async () => {
    await seeded(2000);
    await adminQuery(`ANALYZE "pages_${count}".records`, database);
    const { rows } = await adminQuery(
      `EXPLAIN (FORMAT JSON) SELECT r.run_id, r.summary
       FROM unnest($2::text[]) WITH ORDINALITY AS k (run_id, n)
       JOIN "pages_${count}".records r ON r.experiment_id = $1 AND r.run_id = k.run_id ORDER BY k.n`,
      database,
      ['exp-0001', ['t0001#0', 't0002#0']],
    );
    expect(JSON.stringify(rows[0])).toContain('records_run_id');
  });
});
