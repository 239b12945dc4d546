import { HarnessEvalError } from '../core/errors.ts';
import type { RunRecord } from '../core/run-record.ts';
import { decodeRecord } from './documents.ts';
import { recordPageSize } from './record-summary.ts';
import type { SqliteDatabase } from './sqlite-driver.ts';
import { RecordRowSchema } from './sqlite-statements.ts';
import { trialRecordsOfRows } from './trial-record.ts';
import type { RecordPagesOptions } from './types.ts';

export interface SqlitePagesInput {
  readonly db: SqliteDatabase;
  readonly experimentId: string;
  readonly visit: (page: RunRecord[]) => void | Promise<void>;
  readonly options: RecordPagesOptions;
  /** The store's read wrapper: driver errors become `store` errors. */
  readonly read: <T>(fn: () => T) => T;
  /** Whether the file has the `summary` column (schema 5): an older one has documents only. */
  readonly summaries: boolean;
}

/**
 * One page's rows, by rowid (a JSON array of them). `+experiment_id` keeps the planner on the
 * rowids: left to itself it walked the experiment's whole primary-key range for every page
 * (1,000,000 records: 86 ms a page instead of 9, so the pass grew with the square of the run).
 */
export function pageRowsSql(column: string): string {
  return `SELECT rowid AS row_number, run_id, ${column} FROM records
     WHERE +experiment_id = ? AND rowid IN (SELECT value FROM json_each(?))`;
}

/**
 * `readRecordPages` for SQLite. The records have no index in suite order (each commit would pay
 * for one), so an ordered window sorts the experiment's rows again and walks past its offset:
 * paging 100,000 records so re-sorts them 100 times. Instead the rowids come first, sorted once
 * (8 bytes a record), and each page's rows are then looked up by rowid.
 */
export async function sqliteRecordPages(input: SqlitePagesInput): Promise<void> {
  const { db, experimentId, options, read } = input;
  const { outcomes } = options;
  const only =
    outcomes === undefined ? '' : ` AND outcome IN (${outcomes.map(() => '?').join(', ') || 'NULL'})`;
  const rowids = read(
    () =>
      db
        .prepare(
          `SELECT rowid FROM records WHERE experiment_id = ?${only} ORDER BY task_index, task_id, epoch, rowid`,
        )
        .pluck()
        .all(experimentId, ...(outcomes ?? [])) as number[],
  );
  const size = recordPageSize(options);
  const column = options.whole === true ? 'document' : input.summaries ? 'summary' : 'NULL AS summary';
  const pageRows = db.prepare(pageRowsSql(column));
  const documents = db.prepare(
    `SELECT run_id, document FROM records WHERE experiment_id = ? AND run_id IN (SELECT value FROM json_each(?))`,
  );
  for (let at = 0; at < rowids.length; at += size) {
    const wanted = rowids.slice(at, at + size);
    const found = new Map(
      read(() => pageRows.all(experimentId, JSON.stringify(wanted)) as { row_number: number }[]).map(
        (row) => [row.row_number, row],
      ),
    );
    // A row deleted since the rowids were read is not there any more: it is left out.
    const rows = wanted.flatMap((rowid) => found.get(rowid) ?? []);
    const page =
      options.whole === true
        ? rows.map((raw) => {
            const row = recordRow(raw, experimentId);
            return decodeRecord(row.document, experimentId, row.run_id);
          })
        : await trialRecordsOfRows(rows, experimentId, (runIds) =>
            read(
              () =>
                new Map(
                  documents.all(experimentId, JSON.stringify(runIds)).map((raw) => {
                    const row = recordRow(raw, experimentId);
                    return [row.run_id, decodeRecord(row.document, experimentId, row.run_id)];
                  }),
                ),
            ),
          );
    await input.visit(page);
  }
}

function recordRow(raw: unknown, experimentId: string): { run_id: string; document: string } {
  const row = RecordRowSchema.safeParse(raw);
  if (!row.success)
    throw new HarnessEvalError('store', `a stored run of experiment ${experimentId} is corrupt`);
  return row.data;
}
