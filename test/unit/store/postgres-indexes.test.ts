import { beforeAll, describe, expect, it } from 'vitest';
import { quoteSchema } from '../../../src/store/postgres-migrations.ts';
import { listExperimentsQuery, postgresStatements } from '../../../src/store/postgres-sql.ts';
import { PostgresStore } from '../../../src/store/postgres-store.ts';
import type { ExperimentFilter } from '../../../src/store/types.ts';
import { adminQuery, createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../../helpers/postgres.ts';

/**
 * The reads behind compare, timeline and `latest:` over a store of thousands of experiments use
 * the indexes: the planner is asked (EXPLAIN) about the store's own SQL, on 5,000 experiments
 * of 100 harnesses and 50 suites with 10 records each, and one of 10,000 records, after ANALYZE.
 * (A filter that matches a large share of the table is read faster by a sequential scan, and the
 * planner rightly takes one: the data here is shaped like a long history of many lineages.)
 */

let database = '';
const s = quoteSchema('harnesseval');

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

async function plan(text: string, values: readonly unknown[]): Promise<PlanNode[]> {
  const { rows } = await adminQuery(`EXPLAIN (FORMAT JSON) ${text}`, database, values);
  const [explained] = (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'];
  if (explained === undefined) throw new Error('no plan');
  return nodes(explained.Plan);
}

const describeNodes = (all: PlanNode[]) =>
  all.map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`);

beforeAll(async () => {
  const url = await createTestDatabase();
  database = new URL(url).pathname.slice(1);
  await (await PostgresStore.open(url)).close();
  await adminQuery(
    `INSERT INTO ${s}.experiments (id, name, suite_id, harness_name, harness_version, status, outcome, created_at, finished_at, document)
     SELECT 'exp-' || lpad(i::text, 5, '0'), NULL, 'suite-' || (i % 50), 'harness-' || (i % 100), '1.' || i,
            CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'completed' END, 'pass',
            to_char(timestamp '2026-01-01' + i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'), NULL, '{}'
     FROM generate_series(1, 5000) AS i`,
    database,
  );
  await adminQuery(
    `INSERT INTO ${s}.records (experiment_id, task_id, epoch, run_id, task_index, outcome, document)
     SELECT 'exp-' || lpad(i::text, 5, '0'), 't' || t, 0, 'r' || t, t, 'pass', '{}'
     FROM generate_series(1, 5000) AS i, generate_series(1, 10) AS t`,
    database,
  );
  await adminQuery(
    `INSERT INTO ${s}.records (experiment_id, task_id, epoch, run_id, task_index, outcome, document)
     SELECT 'exp-04242', 'big' || t, e, 'big' || t || '#' || e, 10000 - t, 'pass',
            '{"output":"' || repeat(md5(t::text), 40) || '"}'
     FROM generate_series(1, 2000) AS t, generate_series(0, 4) AS e`,
    database,
  );
  await adminQuery(`ANALYZE ${s}.experiments; ANALYZE ${s}.records`, database);
  // The visibility map lets the record counts be index-only.
  await adminQuery(`VACUUM ${s}.records`, database);
}, POSTGRES_SETUP_TIMEOUT_MS);

describe('reads over thousands of experiments use indexes, not full scans', () => {
  const filters: [string, ExperimentFilter, string][] = [
    [
      'timeline: one harness, completed',
      { harness: 'harness-7', status: 'completed' },
      'experiments_by_harness',
    ],
    ['latest:HARNESS', { harness: 'harness-7', status: 'completed', limit: 1 }, 'experiments_by_harness'],
    ['one suite', { suite: 'suite-3' }, 'experiments_by_suite'],
    ['an id prefix', { idPrefix: 'exp-012' }, 'experiments_pkey'],
    ['the newest 20 (runs list --limit)', { limit: 20 }, 'experiments_by_time'],
  ];
  for (const [what, filter, index] of filters) {
    it(`listExperiments, ${what}: ${index}, no sequential scan`, async () => {
      const query = listExperimentsQuery(s, filter);
      const all = describeNodes(await plan(query.text, query.values));
      expect(
        all.some((n) => n.includes(index)),
        all.join(', '),
      ).toBe(true);
      expect(
        all.filter((n) => n.startsWith('Seq Scan')),
        all.join(', '),
      ).toEqual([]);
      // Each listed experiment's record count reads an index of the records only.
      expect(
        all.filter((n) => /^(Index Only|Bitmap Index) Scan records_/.test(n)),
        all.join(', '),
      ).toHaveLength(1);
    });
  }

  it('getExperiment reads the 10,000 records of one experiment through an index of (experiment, …)', async () => {
    const all = describeNodes(await plan(postgresStatements(s).recordsInOrder.text, ['exp-04242']));
    expect(
      all.filter((n) => n.startsWith('Seq Scan')),
      all.join(', '),
    ).toEqual([]);
    expect(
      all.some((n) => / Scan records_(pkey|run_id)$/.test(n)),
      all.join(', '),
    ).toBe(true);
  });

  it('getExperiment and the writes find the experiment by its primary key', async () => {
    const all = describeNodes(await plan(postgresStatements(s).experimentDocument.text, ['exp-04242']));
    expect(all).toEqual(['Index Scan experiments_pkey']);
  });
});
