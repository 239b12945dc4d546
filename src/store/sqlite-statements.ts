import type Database from 'better-sqlite3';
import { z } from 'zod';
import { HarnessEvalError } from '../core/errors.ts';
import { ExperimentStatusSchema } from '../core/experiment.ts';
import type { ExperimentSummary } from './types.ts';

/** The SQL of the SQLite store, and the checks that turn its rows back into the core model. */

// Rows are checked like any other input, so a damaged file never turns into a mistyped value.
const SummaryRowSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  suite_id: z.string(),
  harness_name: z.string(),
  harness_version: z.string(),
  status: z.string(),
  outcome: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  records: z.number(),
});
export const DocumentRowSchema = z.object({ document: z.string() });
export const RecordRowSchema = z.object({ run_id: z.string(), document: z.string() });

export const SUMMARY_COLUMNS = `e.id, e.name, e.suite_id, e.harness_name, e.harness_version, e.status, e.outcome,
  e.created_at, e.finished_at,
  (SELECT count(*) FROM records r WHERE r.experiment_id = e.id) AS records`;

/** Prepared once per connection and reused for every call. */
export function prepareStatements(db: Database.Database) {
  return {
    insertExperiment: db.prepare(
      `INSERT INTO experiments (id, name, suite_id, harness_name, harness_version, status, outcome, created_at, finished_at, document)
       VALUES (@id, @name, @suite_id, @harness_name, @harness_version, @status, @outcome, @created_at, @finished_at, @document)`,
    ),
    updateExperiment: db.prepare(
      `UPDATE experiments SET status = @status, outcome = @outcome, finished_at = @finished_at, document = @document
       WHERE id = @id`,
    ),
    experimentDocument: db.prepare('SELECT document FROM experiments WHERE id = ?'),
    recordsInOrder: db.prepare(
      `SELECT run_id, document FROM records WHERE experiment_id = ?
       ORDER BY task_index, task_id, epoch, rowid`,
    ),
    deleteExperiment: db.prepare('DELETE FROM experiments WHERE id = ?'),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

/** A record's write (schema version 6); prepared on first use, so a read-only older file still opens. */
export function prepareUpsertRecord(db: Database.Database) {
  return db.prepare(
    `INSERT INTO records (experiment_id, run_id, task_id, epoch, task_index, outcome, document, summary, finished_at)
       VALUES (@experiment_id, @run_id, @task_id, @epoch, @task_index, @outcome, @document, @summary, @finished_at)
       ON CONFLICT (experiment_id, run_id) DO UPDATE SET task_id = excluded.task_id, epoch = excluded.epoch,
         task_index = excluded.task_index, outcome = excluded.outcome, document = excluded.document,
         summary = excluded.summary, finished_at = excluded.finished_at`,
  );
}

/** The run bookkeeping (schema version 3); prepared on first use, so a read-only older file still opens. */
export function prepareBookkeeping(db: Database.Database) {
  return {
    lease: db.prepare('SELECT holder FROM leases WHERE experiment_id = ?'),
    setLease: db.prepare(
      `INSERT INTO leases (experiment_id, holder) VALUES (?, ?)
       ON CONFLICT (experiment_id) DO UPDATE SET holder = excluded.holder`,
    ),
    deleteLease: db.prepare('DELETE FROM leases WHERE experiment_id = ?'),
    // REPLACE, not an upsert: a re-recorded pid sorts as new (rowid order is "oldest first").
    recordChild: db.prepare(
      'INSERT OR REPLACE INTO child_processes (experiment_id, pid, document) VALUES (?, ?, ?)',
    ),
    forgetChild: db.prepare('DELETE FROM child_processes WHERE experiment_id = ? AND pid = ?'),
    children: db.prepare('SELECT experiment_id, document FROM child_processes ORDER BY rowid'),
  };
}

export type BookkeepingStatements = ReturnType<typeof prepareBookkeeping>;

/** Annotations (schema version 4); prepared on first use, like the bookkeeping. */
export function prepareAnnotations(db: Database.Database) {
  return {
    // Only on a stored trial: the row says nothing when the run_id is unknown.
    add: db.prepare(
      `INSERT INTO annotations (experiment_id, run_id, created_at, document)
       SELECT @experiment_id, @run_id, @created_at, @document
       WHERE EXISTS (SELECT 1 FROM records WHERE experiment_id = @experiment_id AND run_id = @run_id)`,
    ),
    list: db.prepare('SELECT id, run_id, document FROM annotations WHERE experiment_id = ? ORDER BY id'),
    one: db.prepare('SELECT id, run_id, document FROM annotations WHERE experiment_id = ? AND id = ?'),
    update: db.prepare('UPDATE annotations SET document = ? WHERE experiment_id = ? AND id = ?'),
    delete: db.prepare('DELETE FROM annotations WHERE experiment_id = ? AND id = ?'),
  };
}

export type AnnotationStatements = ReturnType<typeof prepareAnnotations>;

export function toSummary(raw: unknown): ExperimentSummary {
  const row = SummaryRowSchema.safeParse(raw);
  const status = row.success ? ExperimentStatusSchema.safeParse(row.data.status) : undefined;
  if (!row.success || status === undefined || !status.success) {
    const id = row.success ? ` ${row.data.id}` : '';
    throw new HarnessEvalError('store', `the stored summary of experiment${id} is corrupt`);
  }
  const r = row.data;
  return {
    id: r.id,
    name: r.name ?? undefined,
    suite_id: r.suite_id,
    harness_name: r.harness_name,
    harness_version: r.harness_version,
    status: status.data,
    created_at: r.created_at,
    finished_at: r.finished_at ?? undefined,
    records: r.records,
    outcome: r.outcome ?? undefined,
  };
}
