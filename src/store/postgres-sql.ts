import { queriedOutcomes, recordWindow } from './record-summary.ts';
import type { ExperimentFilter, RecordQuery } from './types.ts';

/**
 * The SQL of the PostgreSQL store for one schema (its quoted name). Hot statements carry a name:
 * node-postgres prepares a named statement once per connection and then only binds values.
 */
export function postgresStatements(s: string) {
  const name = (what: string) => `harnesseval:${s}:${what}`;
  return {
    insertExperiment: `INSERT INTO ${s}.experiments
        (id, name, suite_id, harness_name, harness_version, status, outcome, created_at, finished_at, document)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    /** Many records in one statement: one array per column. */
    insertRecords: `INSERT INTO ${s}.records (experiment_id, task_id, epoch, run_id, task_index, outcome, document, summary, finished_at)
      SELECT $1, * FROM unnest($2::text[], $3::integer[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[])`,
    upsertRecord: {
      name: name('upsert-record'),
      text: `INSERT INTO ${s}.records (experiment_id, task_id, epoch, run_id, task_index, outcome, document, summary, finished_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        ON CONFLICT (experiment_id, run_id) DO UPDATE SET task_id = excluded.task_id, epoch = excluded.epoch,
          task_index = excluded.task_index, outcome = excluded.outcome, document = excluded.document,
          summary = excluded.summary, finished_at = excluded.finished_at`,
    },
    /** Many trials' records at once (group commit), each replacing the record with its run_id. */
    upsertRecords: {
      name: name('upsert-records'),
      text: `INSERT INTO ${s}.records (experiment_id, task_id, epoch, run_id, task_index, outcome, document, summary, finished_at)
        SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[])
        ON CONFLICT (experiment_id, run_id) DO UPDATE SET task_id = excluded.task_id, epoch = excluded.epoch,
          task_index = excluded.task_index, outcome = excluded.outcome, document = excluded.document,
          summary = excluded.summary, finished_at = excluded.finished_at`,
    },
    /** The queue's commit: the first record of a trial wins, a late duplicate changes nothing. */
    insertRecordOnce: {
      name: name('insert-record-once'),
      text: `INSERT INTO ${s}.records (experiment_id, task_id, epoch, run_id, task_index, outcome, document, summary, finished_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        ON CONFLICT (experiment_id, task_id, epoch) DO NOTHING`,
    },
    /**
     * Many trials' first records at once (the queue's group commit): a trial that has a record keeps
     * it; the run_ids returned are the records stored.
     */
    insertRecordsOnce: {
      name: name('insert-records-once'),
      text: `INSERT INTO ${s}.records (experiment_id, task_id, epoch, run_id, task_index, outcome, document, summary, finished_at)
        SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[])
        ON CONFLICT (experiment_id, task_id, epoch) DO NOTHING
        RETURNING run_id`,
    },
    experimentDocument: {
      name: name('experiment-document'),
      text: `SELECT document FROM ${s}.experiments WHERE id = $1`,
    },
    lockExperiment: `SELECT document FROM ${s}.experiments WHERE id = $1 FOR UPDATE`,
    updateExperiment: `UPDATE ${s}.experiments SET status = $2, outcome = $3, finished_at = $4, document = $5
      WHERE id = $1`,
    recordsInOrder: {
      name: name('records-in-order'),
      text: `SELECT run_id, document FROM ${s}.records WHERE experiment_id = $1
        ORDER BY task_index, task_id, epoch`,
    },
    /** A queue's progress: the primary key's prefix is an index, so no record is read. */
    outcomeCounts: {
      name: name('outcome-counts'),
      text: `SELECT outcome, count(*)::integer AS n FROM ${s}.records WHERE experiment_id = $1 GROUP BY outcome`,
    },
    deleteExperiment: `DELETE FROM ${s}.experiments WHERE id = $1`,
  };
}

export type PostgresStatements = ReturnType<typeof postgresStatements>;

/** `LIKE` pattern matching text that starts with `prefix` (its own % _ \ taken literally). */
function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `listExperiments` as one query: filters on indexed columns, newest first (`seq` orders
 * experiments created at the same instant, like SQLite's rowid), each with its record count
 * (an index-only count over the records' primary key).
 */
export function listExperimentsQuery(
  s: string,
  filter: ExperimentFilter,
): { text: string; values: unknown[] } {
  const where: string[] = [];
  const values: unknown[] = [];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    values.push(value);
    where.push(condition(`$${values.length}`));
  };
  if (filter.harness !== undefined) add((p) => `e.harness_name = ${p}`, filter.harness);
  if (filter.suite !== undefined) add((p) => `e.suite_id = ${p}`, filter.suite);
  if (filter.status !== undefined) add((p) => `e.status = ${p}`, filter.status);
  if (filter.idPrefix !== undefined) add((p) => `e.id LIKE ${p}`, prefixPattern(filter.idPrefix));
  let limit = '';
  if (filter.limit !== undefined) {
    values.push(Math.max(0, Math.trunc(filter.limit)));
    limit = ` LIMIT $${values.length}`;
  }
  const text = `SELECT e.id, e.name, e.suite_id, e.harness_name, e.harness_version, e.status, e.outcome,
      e.created_at, e.finished_at,
      (SELECT count(*) FROM ${s}.records r WHERE r.experiment_id = e.id)::integer AS records
    FROM ${s}.experiments e${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
    ORDER BY e.created_at DESC, e.seq DESC${limit}`;
  return { text, values };
}

/**
 * The records of one experiment a query selects, in `recordsInOrder`'s order (the primary key's
 * range, filtered on the task and outcome columns, sorted, then the window). `ordered` false for
 * an aggregate over them.
 */
export function recordsQuery(
  s: string,
  experimentId: string,
  query: RecordQuery,
  columns: string,
  ordered: boolean,
): { text: string; values: unknown[] } {
  const values: unknown[] = [experimentId];
  const where = ['experiment_id = $1'];
  if (query.task !== undefined) {
    values.push(query.task);
    where.push(`task_id = $${values.length}`);
  }
  const outcomes = queriedOutcomes(query);
  if (outcomes !== undefined) {
    values.push([...outcomes]);
    where.push(`outcome = ANY($${values.length}::text[])`);
  }
  if (query.finishedAfter !== undefined) {
    values.push(query.finishedAfter);
    where.push(`(finished_at IS NULL OR finished_at > $${values.length})`);
  }
  let text = `SELECT ${columns} FROM ${s}.records WHERE ${where.join(' AND ')}`;
  if (ordered) {
    const { offset, limit } = recordWindow(query);
    values.push(limit ?? null, offset);
    text += ` ORDER BY task_index, task_id, epoch LIMIT $${values.length - 1} OFFSET $${values.length}`;
  }
  return { text, values };
}
