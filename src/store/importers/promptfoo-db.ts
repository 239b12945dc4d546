import type { z } from 'zod';
import { errorMessage, type HarnessEvalError } from '../../core/errors.ts';
import { openSqliteDatabase, type SqliteDatabase } from '../sqlite-driver.ts';
import { fileProblem, parseForeignJson } from './json-document.ts';
import { type PromptfooEval, promptfooTime } from './promptfoo-eval.ts';
import {
  PromptfooConfigSchema,
  PromptfooGradingResultSchema,
  PromptfooMetadataSchema,
  PromptfooNamedScoresSchema,
  PromptfooPromptSchema,
  PromptfooProviderSchema,
  PromptfooResponseSchema,
  type PromptfooResult,
  PromptfooSummarySchema,
  PromptfooTestCaseSchema,
} from './promptfoo-schema.ts';

/**
 * The columns read, as promptfoo's drizzle migrations 0000–0027 leave them (`drizzle/*.sql`,
 * `src/database/tables.ts`). A database without one of them is from a promptfoo this importer does
 * not know (before migration 0011 added `failure_reason`, or a different tool's file).
 */
const REQUIRED_COLUMNS = {
  evals: ['id', 'created_at', 'author', 'description', 'results', 'config'],
  eval_results: [
    'id',
    'created_at',
    'eval_id',
    'prompt_idx',
    'test_idx',
    'test_case',
    'prompt',
    'prompt_id',
    'provider',
    'latency_ms',
    'cost',
    'response',
    'error',
    'failure_reason',
    'success',
    'score',
    'grading_result',
    'named_scores',
    'metadata',
  ],
} as const;

/** `when` of the newest migration read (drizzle/meta/_journal.json, 0027_conscious_annihilus). */
export const NEWEST_KNOWN_MIGRATION = 1790512473075;

type Row = Record<string, unknown>;

function schemaError(shown: string, path: string, message: string): HarnessEvalError {
  return fileProblem(`${shown} is not a promptfoo database this importer reads`, {
    file: shown,
    path,
    message,
    expected: 'a promptfoo.db migrated to 0011 or later (migrations up to 0027 are known)',
  });
}

function checkSchema(db: SqliteDatabase, shown: string): void {
  for (const [table, columns] of Object.entries(REQUIRED_COLUMNS)) {
    const present = new Set(
      (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
    );
    if (present.size === 0) throw schemaError(shown, table, `unknown schema version: no table ${table}`);
    const missing = columns.filter((c) => !present.has(c));
    if (missing.length > 0)
      throw schemaError(shown, table, `unknown schema version: no column ${missing.join(', ')}`);
  }
}

function jsonColumn<S extends z.ZodType>(
  row: Row,
  column: string,
  where: string,
  schema: S,
): z.infer<S> | undefined {
  const text = row[column];
  if (text === null || text === undefined) return undefined;
  return parseForeignJson(String(text), `${where}.${column}`, schema);
}

function numberColumn(row: Row, column: string, where: string): number | undefined {
  const value = row[column];
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value);
  throw schemaError(where, column, `wrong type ${typeof value}`);
}

/** One `eval_results` row as the result promptfoo's `EvalResult.toEvaluateResult` would give. */
function resultFromRow(row: Row, shown: string): { result: PromptfooResult; timestamp?: string } {
  const where = `${shown}[eval_results id=${String(row['id'])}]`;
  const required = <T>(value: T | undefined, column: string): T => {
    if (value === undefined) throw schemaError(where, column, 'missing (NULL)');
    return value;
  };
  const failure = numberColumn(row, 'failure_reason', where) ?? 0;
  if (failure !== 0 && failure !== 1 && failure !== 2)
    throw schemaError(where, 'failure_reason', `unknown value ${failure} (expected 0, 1 or 2)`);
  const testCase = required(jsonColumn(row, 'test_case', where, PromptfooTestCaseSchema), 'test_case');
  const timestamp = promptfooTime(row['created_at']);
  const result: PromptfooResult = {
    id: String(row['id']),
    promptIdx: required(numberColumn(row, 'prompt_idx', where), 'prompt_idx'),
    testIdx: required(numberColumn(row, 'test_idx', where), 'test_idx'),
    testCase,
    ...(row['prompt_id'] == null ? {} : { promptId: String(row['prompt_id']) }),
    provider: required(jsonColumn(row, 'provider', where, PromptfooProviderSchema), 'provider'),
    prompt: required(jsonColumn(row, 'prompt', where, PromptfooPromptSchema), 'prompt'),
    response: jsonColumn(row, 'response', where, PromptfooResponseSchema.nullable()) ?? null,
    error: row['error'] == null ? null : String(row['error']),
    failureReason: failure,
    success: required(numberColumn(row, 'success', where), 'success') !== 0,
    score: required(numberColumn(row, 'score', where), 'score'),
    latencyMs: numberColumn(row, 'latency_ms', where) ?? null,
    gradingResult: jsonColumn(row, 'grading_result', where, PromptfooGradingResultSchema.nullable()) ?? null,
    namedScores: jsonColumn(row, 'named_scores', where, PromptfooNamedScoresSchema) ?? null,
    cost: numberColumn(row, 'cost', where) ?? null,
    metadata: jsonColumn(row, 'metadata', where, PromptfooMetadataSchema) ?? null,
  };
  return timestamp === undefined ? { result } : { result, timestamp };
}

function openReadOnly(path: string, shown: string): SqliteDatabase {
  try {
    const db = openSqliteDatabase(path, { readonly: true, fileMustExist: true });
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    throw fileProblem(`${shown} cannot be read as a SQLite database`, {
      file: shown,
      message: errorMessage(error),
      expected: 'promptfoo.db',
      cause: error,
    });
  }
}

/** The newest drizzle migration applied (its `created_at` is the journal's `when`), if recorded. */
function newestMigration(db: SqliteDatabase): number | undefined {
  try {
    const row = db.prepare('SELECT max(created_at) AS newest FROM __drizzle_migrations').get() as {
      newest: unknown;
    };
    return row.newest == null ? undefined : Number(row.newest);
  } catch {
    return undefined;
  }
}

/**
 * Every eval of a promptfoo SQLite database (`~/.promptfoo/promptfoo.db`), opened read-only: its
 * `eval_results` rows (version 4), or for evals written before results had their own table, the
 * summary kept in `evals.results` (versions 2 and 3).
 */
export function readPromptfooDatabase(
  path: string,
  shown: string,
): { evals: PromptfooEval[]; newestMigration: number | undefined; empty: string[] } {
  const db = openReadOnly(path, shown);
  try {
    checkSchema(db, shown);
    const evals: PromptfooEval[] = [];
    const empty: string[] = [];
    const evalRows = db
      .prepare(
        'SELECT id, created_at, author, description, results, config FROM evals ORDER BY created_at, id',
      )
      .all() as Row[];
    const resultRows = db.prepare(
      'SELECT * FROM eval_results WHERE eval_id = ? ORDER BY prompt_idx, test_idx',
    );
    for (const row of evalRows) {
      const id = String(row['id']);
      const where = `${shown}[evals id=${id}]`;
      const config = jsonColumn(row, 'config', where, PromptfooConfigSchema) ?? {};
      const rows = resultRows.all(id) as Row[];
      let results = rows.map((r) => resultFromRow(r, shown));
      let version = 4;
      if (results.length === 0) {
        const summary = String(row['results'] ?? '{}');
        // A version 4 eval keeps only run timings in `results`; an older one keeps the whole summary.
        if (/"results"\s*:\s*\[/.test(summary)) {
          const parsed = parseForeignJson(summary, `${where}.results`, PromptfooSummarySchema);
          version = parsed.version;
          results = parsed.results.map((result) => ({ result }));
        }
      }
      if (results.length === 0) {
        empty.push(id);
        continue;
      }
      const createdAt = promptfooTime(row['created_at']);
      evals.push({
        id,
        ...(createdAt === undefined ? {} : { createdAt }),
        ...(row['author'] == null ? {} : { author: String(row['author']) }),
        config: {
          ...config,
          ...(row['description'] == null ? {} : { description: String(row['description']) }),
        },
        results,
        version,
      });
    }
    return { evals, newestMigration: newestMigration(db), empty };
  } finally {
    db.close();
  }
}
