import type pg from 'pg';
import { HarnessEvalError } from '../core/errors.ts';

interface Migration {
  readonly version: number;
  /** The step's SQL for a schema (its quoted name). */
  readonly sql: (s: string) => string;
}

/**
 * The PostgreSQL schema, one step per version, applied in order; `S.migrations` holds a row per
 * step applied. Steps are append-only, like SQLite's (migrations.ts): a shipped step is never
 * edited, a change adds a step. Text columns that are compared or sorted use the "C" collation,
 * so order and prefix matches are byte-wise whatever the database's locale — as in SQLite — and a
 * prefix `LIKE` can use the b-tree.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: (s) => `
      CREATE TABLE ${s}.experiments (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text COLLATE "C" PRIMARY KEY,
        name text,
        suite_id text COLLATE "C" NOT NULL,
        harness_name text COLLATE "C" NOT NULL,
        harness_version text COLLATE "C" NOT NULL,
        status text NOT NULL,
        outcome text,
        created_at text COLLATE "C" NOT NULL,
        finished_at text,
        document text NOT NULL
      );
      CREATE INDEX experiments_by_time ON ${s}.experiments (created_at DESC, seq DESC);
      CREATE INDEX experiments_by_harness ON ${s}.experiments (harness_name, created_at DESC, seq DESC);
      CREATE INDEX experiments_by_suite ON ${s}.experiments (suite_id, created_at DESC, seq DESC);
      CREATE TABLE ${s}.records (
        experiment_id text COLLATE "C" NOT NULL REFERENCES ${s}.experiments (id) ON DELETE CASCADE,
        task_id text COLLATE "C" NOT NULL,
        epoch integer NOT NULL,
        run_id text COLLATE "C" NOT NULL,
        task_index bigint NOT NULL,
        outcome text NOT NULL,
        document text NOT NULL,
        PRIMARY KEY (experiment_id, task_id, epoch),
        CONSTRAINT records_run_id UNIQUE (experiment_id, run_id)
      );
      -- No index for suite order: the planner reads an experiment's records through the primary
      -- key and sorts them (it preferred that over an ordered index, which every commit paid for).
    `,
  },
  {
    // The run bookkeeping, as SQLite's version 3: one lease per experiment, and the process
    // groups a run started (oldest first by seq; a re-recorded pid is deleted and inserted anew).
    version: 2,
    sql: (s) => `
      CREATE TABLE ${s}.leases (
        experiment_id text COLLATE "C" PRIMARY KEY REFERENCES ${s}.experiments (id) ON DELETE CASCADE,
        holder text NOT NULL
      );
      CREATE TABLE ${s}.child_processes (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        experiment_id text COLLATE "C" NOT NULL REFERENCES ${s}.experiments (id) ON DELETE CASCADE,
        pid integer NOT NULL,
        document text NOT NULL,
        PRIMARY KEY (experiment_id, pid)
      );
    `,
  },
  {
    // Annotations, as SQLite's version 4: a person's label and note on a trial, beside the records.
    version: 3,
    sql: (s) => `
      CREATE TABLE ${s}.annotations (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        experiment_id text COLLATE "C" NOT NULL REFERENCES ${s}.experiments (id) ON DELETE CASCADE,
        run_id text COLLATE "C" NOT NULL,
        created_at text NOT NULL,
        document text NOT NULL
      );
      CREATE INDEX annotations_by_experiment ON ${s}.annotations (experiment_id, id);
    `,
  },
  {
    // As SQLite's version 5: each record's summary fields beside its document (NULL for rows
    // written before, summarised from their documents on read).
    version: 4,
    sql: (s) => `ALTER TABLE ${s}.records ADD COLUMN summary text;`,
  },
  {
    // As SQLite's version 6: when each trial ended, for the live screen's "what is new" reads
    // (NULL for rows written before: always read as new).
    version: 5,
    sql: (s) => `ALTER TABLE ${s}.records ADD COLUMN finished_at text COLLATE "C";`,
  },
];

export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.reduce((latest, m) => Math.max(latest, m.version), 0);

/** A schema name we can put in SQL without surprises. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new HarnessEvalError(
      'usage',
      `store schema "${schema}" should be lower-case letters, digits and _ (at most 63, not starting with a digit)`,
    );
  }
  return `"${schema}"`;
}

export interface MigrateOptions {
  readonly schema: string;
  /** The store as messages name it (password redacted). */
  readonly shown: string;
  /** Fail with `not_found` instead of creating the tables in an empty schema. */
  readonly mustExist: boolean;
}

async function appliedVersion(client: pg.PoolClient, schema: string): Promise<number> {
  const table = await client.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
    `"${schema}".migrations`,
  ]);
  if (table.rows[0]?.present !== true) return 0;
  const result = await client.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM "${schema}".migrations`,
  );
  return result.rows[0]?.version ?? 0;
}

/**
 * Brings the schema up to POSTGRES_SCHEMA_VERSION in one transaction. A transaction-scoped
 * advisory lock on the schema's name serialises processes that open a new store at once (CREATE
 * SCHEMA IF NOT EXISTS alone races), so the steps run once.
 */
export async function migratePostgres(client: pg.PoolClient, options: MigrateOptions): Promise<void> {
  const schema = quoteSchema(options.schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`harnesseval:${options.schema}`]);
    const found = await appliedVersion(client, options.schema);
    if (found > POSTGRES_SCHEMA_VERSION) {
      throw new HarnessEvalError(
        'store',
        `${options.shown} has store schema version ${found}, newer than this HarnessEval understands (${POSTGRES_SCHEMA_VERSION}); upgrade harnesseval`,
      );
    }
    if (found === 0 && options.mustExist) {
      throw new HarnessEvalError(
        'not_found',
        `no store at ${options.shown} (schema ${options.schema} has no HarnessEval tables)`,
      );
    }
    if (found < POSTGRES_SCHEMA_VERSION) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${schema}.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      for (const migration of MIGRATIONS) {
        if (migration.version <= found) continue;
        await client.query(migration.sql(schema));
        await client.query(`INSERT INTO ${schema}.migrations (version) VALUES ($1)`, [migration.version]);
      }
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
