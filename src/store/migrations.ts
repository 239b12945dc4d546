import type { Database } from 'better-sqlite3';
import { HarnessEvalError } from '../core/errors.ts';

interface Migration {
  readonly version: number;
  readonly sql: string;
}

/**
 * The schema, one step per version, applied in order. `PRAGMA user_version` records the last
 * step applied. Steps are append-only: a shipped step is never edited, a change adds a step.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE experiments (
        id TEXT PRIMARY KEY,
        name TEXT,
        suite_id TEXT NOT NULL,
        harness_name TEXT NOT NULL,
        harness_version TEXT NOT NULL,
        status TEXT NOT NULL,
        outcome TEXT,
        created_at TEXT NOT NULL,
        finished_at TEXT,
        document TEXT NOT NULL
      );
      CREATE INDEX experiments_by_time ON experiments (created_at);
      CREATE INDEX experiments_by_harness ON experiments (harness_name, created_at);
      CREATE INDEX experiments_by_suite ON experiments (suite_id, created_at);
      CREATE TABLE records (
        experiment_id TEXT NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
        run_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        epoch INTEGER NOT NULL,
        task_index INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        document TEXT NOT NULL,
        PRIMARY KEY (experiment_id, run_id)
      );
      CREATE INDEX records_in_file_order ON records (experiment_id, task_index, task_id, epoch);
    `,
  },
  {
    // Every trial's commit updated this index too (~15 us of the ~70 us of a commit); reading an
    // experiment's records sorts them from the primary key's range instead, a few ms per 10,000.
    version: 2,
    sql: 'DROP INDEX IF EXISTS records_in_file_order;',
  },
  {
    // Run bookkeeping (ADR 0002): the process running an experiment (one at a time), and the
    // process groups it started, so that a later run can end what a killed run left behind.
    version: 3,
    sql: `
      CREATE TABLE leases (
        experiment_id TEXT PRIMARY KEY REFERENCES experiments (id) ON DELETE CASCADE,
        holder TEXT NOT NULL
      );
      CREATE TABLE child_processes (
        experiment_id TEXT NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
        pid INTEGER NOT NULL,
        document TEXT NOT NULL,
        PRIMARY KEY (experiment_id, pid)
      );
    `,
  },
  {
    // Annotations: a person's label and note on a trial, kept beside the records (a record stays
    // what the run produced). The id orders them; deleting the experiment deletes them.
    version: 4,
    sql: `
      CREATE TABLE annotations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        experiment_id TEXT NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
        run_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        document TEXT NOT NULL
      );
      CREATE INDEX annotations_by_experiment ON annotations (experiment_id, id);
    `,
  },
  {
    // A record's summary fields (store/record-summary.ts) beside its document, so the viewer's
    // page of a 10,000-trial experiment reads ~200 bytes a trial, not every whole record. Rows
    // written before have NULL and are summarised from their document on read.
    version: 5,
    sql: 'ALTER TABLE records ADD COLUMN summary TEXT;',
  },
  {
    // When each trial ended (record-summary.ts `finishedAt`), so the live screen asks only for
    // what finished since it last looked. Rows written before have NULL (always "new"); their
    // summaries, without a timestamp, are read from the document.
    version: 6,
    sql: 'ALTER TABLE records ADD COLUMN finished_at TEXT;',
  },
];

export const SCHEMA_VERSION = MIGRATIONS.reduce((latest, m) => Math.max(latest, m.version), 0);

export function userVersion(db: Database): number {
  const version: unknown = db.pragma('user_version', { simple: true });
  if (typeof version !== 'number') throw new HarnessEvalError('store', 'cannot read the schema version');
  return version;
}

/** The file's schema version; a newer one than this release knows fails with `store`. */
export function checkVersion(db: Database, file: string): number {
  const found = userVersion(db);
  if (found > SCHEMA_VERSION) {
    throw new HarnessEvalError(
      'store',
      `${file} has schema version ${found}, newer than this HarnessEval understands (${SCHEMA_VERSION}); upgrade harnesseval`,
    );
  }
  return found;
}

/**
 * Brings the database up to SCHEMA_VERSION. Each step runs in an IMMEDIATE transaction and
 * re-reads the version inside it, so two processes opening a new file at once apply it once.
 */
export function migrate(db: Database, file: string): void {
  const found = checkVersion(db, file);
  for (const migration of MIGRATIONS) {
    if (migration.version <= found) continue;
    db.transaction(() => {
      if (userVersion(db) >= migration.version) return;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}
