import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import { decodeExperiment, decodeRecord, type ExperimentDocument, splitExperiment } from './documents.ts';
import { userVersion } from './migrations.ts';
import { queriedOutcomes, recordWindow, summarizeRecord, summaryOfRow } from './record-summary.ts';
import type { SqliteAccess } from './sqlite-access.ts';
import { sqliteRecordPages } from './sqlite-pages.ts';
import {
  DocumentRowSchema,
  RecordRowSchema,
  type Statements,
  SUMMARY_COLUMNS,
  toSummary,
} from './sqlite-statements.ts';
import { trialRecordsOfRows } from './trial-record.ts';
import type {
  ExperimentFilter,
  ExperimentSummary,
  RecordPagesOptions,
  RecordQuery,
  RecordSummary,
} from './types.ts';

/**
 * The SQLite store's reads of experiments and records (what `compare`, `timeline`, reporters and
 * the viewer read), apart from its writes (sqlite-store.ts) as the PostgreSQL store's are
 * (postgres-reads.ts). A file older than the current schema, opened read-only, still reads.
 */
export class SqliteReads {
  readonly #access: SqliteAccess;
  readonly #statements: Statements;
  #version: number | undefined;

  constructor(access: SqliteAccess, statements: Statements) {
    this.#access = access;
    this.#statements = statements;
  }

  async getExperiment(experimentId: string): Promise<Experiment | undefined> {
    // One read transaction: the document and the records come from the same snapshot even while
    // another process writes.
    const snapshot = this.#access.db.transaction(() => {
      const document = this.readDocument(experimentId);
      return document === undefined
        ? undefined
        : { document, rows: this.#statements.recordsInOrder.all(experimentId) };
    });
    return this.#access.read(() => {
      const read = snapshot.deferred();
      if (read === undefined) return undefined;
      return { ...read.document, records: read.rows.map((raw) => decodeRow(raw, experimentId)) };
    });
  }

  async getExperimentDocument(experimentId: string): Promise<ExperimentDocument | undefined> {
    return this.#access.read(() => {
      const document = this.readDocument(experimentId);
      return document === undefined ? undefined : splitExperiment(document).document;
    });
  }

  async listRecords(experimentId: string, query: RecordQuery = {}): Promise<RunRecord[]> {
    return this.#access.read(() =>
      this.#recordRows(experimentId, query, 'run_id, document').map((raw) => decodeRow(raw, experimentId)),
    );
  }

  async listRecordSummaries(experimentId: string, query: RecordQuery = {}): Promise<RecordSummary[]> {
    return this.#access.read(() =>
      this.#summaryRows(experimentId, query).map((raw) => {
        const row = raw as { run_id?: unknown; summary?: unknown };
        if (typeof row.run_id !== 'string' || (row.summary !== null && typeof row.summary !== 'string'))
          throw new HarnessEvalError('store', `a stored run of experiment ${experimentId} is corrupt`);
        const runId = row.run_id;
        return (
          summaryOfRow({ run_id: runId, summary: row.summary }) ??
          summarizeRecord(this.#documentOfRun(experimentId, runId), experimentId, runId)
        );
      }),
    );
  }

  async listTrialRecords(experimentId: string, query: RecordQuery = {}): Promise<RunRecord[]> {
    const rows = this.#access.read(() => this.#summaryRows(experimentId, query));
    return trialRecordsOfRows(rows, experimentId, (runIds) =>
      this.#access.read(
        () =>
          new Map(runIds.map((runId) => [runId, decodeRow(this.#runRow(experimentId, runId), experimentId)])),
      ),
    );
  }

  async readRecordPages(
    experimentId: string,
    visit: (page: RunRecord[]) => void | Promise<void>,
    options: RecordPagesOptions = {},
  ): Promise<void> {
    const read = <T>(fn: () => T) => this.#access.read(fn);
    const summaries = read(() => this.#schemaVersion() >= 5);
    await sqliteRecordPages({ db: this.#access.db, experimentId, visit, options, read, summaries });
  }

  async countRecords(experimentId: string, query: RecordQuery = {}): Promise<number> {
    return this.#access.read(() => {
      const [row] = this.#recordRows(experimentId, query, 'count(*) AS n', false) as { n?: unknown }[];
      if (typeof row?.n !== 'number')
        throw new HarnessEvalError('store', `cannot count the runs of experiment ${experimentId}`);
      return row.n;
    });
  }

  async listExperiments(filter: ExperimentFilter = {}): Promise<ExperimentSummary[]> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    const equal = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      where.push(`${column} = ?`);
      params.push(value);
    };
    equal('e.harness_name', filter.harness);
    equal('e.suite_id', filter.suite);
    equal('e.status', filter.status);
    if (filter.idPrefix !== undefined) {
      // substr, not LIKE: ids may contain % or _.
      where.push('substr(e.id, 1, ?) = ?');
      params.push(filter.idPrefix.length, filter.idPrefix);
    }
    const limit = filter.limit === undefined ? '' : ' LIMIT ?';
    if (filter.limit !== undefined) params.push(Math.max(0, Math.trunc(filter.limit)));
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM experiments e${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
      ORDER BY e.created_at DESC, e.rowid DESC${limit}`;
    return this.#access.read(() =>
      this.#access.db
        .prepare(sql)
        .all(...params)
        .map(toSummary),
    );
  }

  /** The stored document, checked; undefined if there is no such experiment. Call inside `read`. */
  readDocument(experimentId: string): Experiment | undefined {
    const text = this.documentText(experimentId);
    return text === undefined ? undefined : decodeExperiment(text, experimentId);
  }

  /** The stored document's JSON text, unchecked. Call inside `read` or `write`. */
  documentText(experimentId: string): string | undefined {
    const raw = this.#statements.experimentDocument.get(experimentId);
    if (raw === undefined) return undefined;
    const row = DocumentRowSchema.safeParse(raw);
    if (!row.success) throw new HarnessEvalError('store', `stored experiment ${experimentId} is corrupt`);
    return row.data.document;
  }

  /** The rows a query selects, in getExperiment's order (`ordered` false: an aggregate over them). */
  #recordRows(experimentId: string, query: RecordQuery, columns: string, ordered = true): unknown[] {
    const where = ['experiment_id = ?'];
    const params: (string | number)[] = [experimentId];
    if (query.task !== undefined) {
      where.push('task_id = ?');
      params.push(query.task);
    }
    const outcomes = queriedOutcomes(query);
    if (outcomes !== undefined) {
      where.push(`outcome IN (${outcomes.map(() => '?').join(', ') || 'NULL'})`);
      params.push(...outcomes);
    }
    // A file older than schema 6 (opened read-only) knows no finish time: every row is "new".
    if (query.finishedAfter !== undefined && this.#schemaVersion() >= 6) {
      where.push('(finished_at IS NULL OR finished_at > ?)');
      params.push(query.finishedAfter);
    }
    const { db } = this.#access;
    const order = 'ORDER BY task_index, task_id, epoch, rowid';
    const filtered = `FROM records WHERE ${where.join(' AND ')}`;
    if (!ordered) return db.prepare(`SELECT ${columns} ${filtered}`).all(...params);
    const { offset, limit } = recordWindow(query);
    if (limit === undefined && offset === 0)
      return db.prepare(`SELECT ${columns} ${filtered} ${order}`).all(...params);
    // A window sorts only the keys of the rows, then reads the documents of the window: a report
    // paging through 100,000 records would otherwise sort every document once per page.
    const window = `SELECT rowid ${filtered} ${order} LIMIT ? OFFSET ?`;
    return db
      .prepare(`SELECT ${columns} FROM records WHERE rowid IN (${window}) ${order}`)
      .all(...params, limit ?? -1, offset);
  }

  /** Rows of run_id and summary; a file older than schema 5 (opened read-only) has documents only. */
  #summaryRows(experimentId: string, query: RecordQuery): unknown[] {
    if (this.#schemaVersion() >= 5) return this.#recordRows(experimentId, query, 'run_id, summary');
    return this.#recordRows(experimentId, query, 'run_id, NULL AS summary');
  }

  #schemaVersion(): number {
    this.#version ??= userVersion(this.#access.db);
    return this.#version;
  }

  #documentOfRun(experimentId: string, runId: string): string {
    return recordRowOf(this.#runRow(experimentId, runId), experimentId).document;
  }

  #runRow(experimentId: string, runId: string): unknown {
    return this.#access.db
      .prepare('SELECT run_id, document FROM records WHERE experiment_id = ? AND run_id = ?')
      .get(experimentId, runId);
  }
}

function decodeRow(raw: unknown, experimentId: string): RunRecord {
  const row = recordRowOf(raw, experimentId);
  return decodeRecord(row.document, experimentId, row.run_id);
}

function recordRowOf(raw: unknown, experimentId: string): { run_id: string; document: string } {
  const row = RecordRowSchema.safeParse(raw);
  if (!row.success)
    throw new HarnessEvalError('store', `a stored run of experiment ${experimentId} is corrupt`);
  return row.data;
}
