import type { Annotation, AnnotationEdit, AnnotationInput, AnnotationTimes } from '../core/annotation.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import {
  decodeAnnotation,
  prepareAnnotation,
  prepareAnnotationEdit,
  unknownAnnotation,
  unknownRun,
} from './annotations.ts';
import { isBusy, retryWhileBusy } from './busy-retry.ts';
import {
  checkExperiment,
  checkRecord,
  decodeExperiment,
  decodeRecord,
  type ExperimentDocument,
  encodeDocument,
  patchDocument,
  splitExperiment,
  taskIndexes,
  taskIndexOf,
} from './documents.ts';
import { userVersion } from './migrations.ts';
import { finishedAt, recordWindow, summarizeRecord, summaryOfRow, summarySource } from './record-summary.ts';
import { secretRedactor } from './redact.ts';
import {
  type ChildProcessRecord,
  ChildProcessSchema,
  type LeaseHolder,
  LeaseHolderSchema,
  type StoredChildProcess,
  sameProcess,
} from './run-bookkeeping.ts';
import type { SqliteDatabase } from './sqlite-driver.ts';
import { openSqlite } from './sqlite-open.ts';
import { sqliteRecordPages } from './sqlite-pages.ts';
import {
  type AnnotationStatements,
  type BookkeepingStatements,
  DocumentRowSchema,
  prepareAnnotations,
  prepareBookkeeping,
  prepareStatements,
  prepareUpsertRecord,
  RecordRowSchema,
  type Statements,
  SUMMARY_COLUMNS,
  toSummary,
} from './sqlite-statements.ts';
import { trialRecordsOfRows } from './trial-record.ts';
import type {
  ExperimentFilter,
  ExperimentPatch,
  ExperimentStore,
  ExperimentSummary,
  RecordPagesOptions,
  RecordQuery,
  RecordSummary,
} from './types.ts';

export interface SqliteStoreOptions {
  /** Environment whose secret-looking values are scrubbed before writing (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Fail with `not_found` instead of creating the file (read-only commands). */
  readonly mustExist?: boolean;
  /**
   * `full` (default) fsyncs the WAL on every commit: a record survives power loss once
   * `appendRecord` resolves, at the cost of one fsync (a few ms, blocking) per record.
   * `normal` survives a crash of the process but not of the machine, and is several times faster.
   */
  readonly durability?: 'full' | 'normal';
  /**
   * Milliseconds a write waits, in all, for another process's write lock before it fails with
   * `store` (`data.busy: true`): default 30,000, retried with growing pauses that do not block
   * the event loop.
   */
  readonly busyTimeoutMs?: number;
  /** Open for reading only: nothing is created or migrated (read commands; a read-only folder works). */
  readonly readonly?: boolean;
}

/** One statement waits this long for a lock before the store retries it (the wait blocks). */
const STATEMENT_BUSY_MS = 100;
const DEFAULT_BUSY_BUDGET_MS = 30_000;

/**
 * The default store: one SQLite file in WAL mode. One process writes while others read.
 * `synchronous = FULL` makes every commit fsync the WAL, so a record is on disk when
 * `appendRecord` resolves even if the machine loses power (NORMAL only survives a process crash).
 */
export class SqliteStore implements ExperimentStore {
  readonly path: string;
  readonly #db: SqliteDatabase;
  readonly #redact: (text: string) => string;
  /** Task order per experiment: the suite never changes after creation, so it is read once. */
  readonly #taskOrder = new Map<string, ReadonlyMap<string, number>>();
  readonly #statements: Statements;

  readonly #cleanup: () => void;
  readonly #busyBudgetMs: number;
  #bookkeeping: BookkeepingStatements | undefined;
  #annotations: AnnotationStatements | undefined;
  #version: number | undefined;
  #upsertRecord: ReturnType<typeof prepareUpsertRecord> | undefined;

  constructor(path: string, options: SqliteStoreOptions = {}) {
    this.path = path;
    this.#redact = secretRedactor(options.env ?? process.env);
    this.#busyBudgetMs = Math.max(0, options.busyTimeoutMs ?? DEFAULT_BUSY_BUDGET_MS);
    const opened = openSqlite(path, {
      ...(options.mustExist === undefined ? {} : { mustExist: options.mustExist }),
      ...(options.readonly === undefined ? {} : { readonly: options.readonly }),
      ...(options.durability === undefined ? {} : { durability: options.durability }),
      busyTimeoutMs: Math.min(STATEMENT_BUSY_MS, this.#busyBudgetMs),
    });
    this.#db = opened.db;
    this.#cleanup = opened.cleanup;
    this.#statements = prepareStatements(this.#db);
  }

  async createExperiment(experiment: Experiment): Promise<void> {
    const checked = checkExperiment(experiment);
    const { document, records } = splitExperiment(checked);
    const indexes = taskIndexes(document);
    const recordRows = records.map((record) =>
      this.#recordRow(checked.id, checkRecord(checked.id, record), indexes),
    );
    const documentText = encodeDocument(document, this.#redact, `experiment ${checked.id}`);
    await this.#write(`store experiment ${checked.id}`, () => {
      this.#db
        .transaction(() => {
          if (this.#statements.experimentDocument.get(checked.id) !== undefined) {
            throw new HarnessEvalError('store', `experiment ${checked.id} already exists in ${this.path}`, {
              data: { experimentId: checked.id },
            });
          }
          this.#statements.insertExperiment.run({
            id: checked.id,
            name: checked.name ?? null,
            suite_id: checked.suite.id,
            harness_name: checked.harness.name,
            harness_version: checked.harness.version,
            status: checked.status,
            outcome: checked.outcome ?? null,
            created_at: checked.created_at,
            finished_at: checked.finished_at ?? null,
            document: documentText,
          });
          for (const row of recordRows) this.#upsert().run(row);
        })
        .immediate();
    });
    this.#taskOrder.set(checked.id, indexes);
  }

  async appendRecord(experimentId: string, record: RunRecord): Promise<void> {
    const checked = checkRecord(experimentId, record);
    const indexes = this.#taskOrderOf(experimentId);
    const row = this.#recordRow(experimentId, checked, indexes);
    // A single statement in autocommit mode is its own transaction, committed (and fsynced) on return.
    await this.#write(`store run ${checked.run_id} of experiment ${experimentId}`, () => {
      this.#upsert().run(row);
    });
  }

  async updateExperiment(experimentId: string, patch: ExperimentPatch): Promise<void> {
    await this.#write(`update experiment ${experimentId}`, () => {
      this.#db
        .transaction(() => {
          const text = this.#documentText(experimentId);
          if (text === undefined) throw notFound(experimentId, this.path);
          const next = patchDocument(text, experimentId, patch);
          this.#statements.updateExperiment.run({
            id: experimentId,
            status: next.status,
            outcome: next.outcome ?? null,
            finished_at: next.finished_at ?? null,
            document: encodeDocument(next, this.#redact, `experiment ${experimentId}`),
          });
        })
        .immediate();
    });
  }

  async getExperiment(experimentId: string): Promise<Experiment | undefined> {
    // One read transaction: the document and the records come from the same snapshot even while
    // another process writes.
    const snapshot = this.#db.transaction(() => {
      const document = this.#readDocument(experimentId);
      return document === undefined
        ? undefined
        : { document, rows: this.#statements.recordsInOrder.all(experimentId) };
    });
    return this.#read(() => {
      const read = snapshot.deferred();
      if (read === undefined) return undefined;
      return { ...read.document, records: read.rows.map((raw) => this.#decodeRow(raw, experimentId)) };
    });
  }

  async getExperimentDocument(experimentId: string): Promise<ExperimentDocument | undefined> {
    return this.#read(() => {
      const document = this.#readDocument(experimentId);
      return document === undefined ? undefined : splitExperiment(document).document;
    });
  }

  async listRecords(experimentId: string, query: RecordQuery = {}): Promise<RunRecord[]> {
    return this.#read(() =>
      this.#recordRows(experimentId, query, 'run_id, document').map((raw) =>
        this.#decodeRow(raw, experimentId),
      ),
    );
  }

  async listRecordSummaries(experimentId: string, query: RecordQuery = {}): Promise<RecordSummary[]> {
    return this.#read(() =>
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
    const rows = this.#read(() => this.#summaryRows(experimentId, query));
    return trialRecordsOfRows(rows, experimentId, (runIds) =>
      this.#read(
        () =>
          new Map(
            runIds.map((runId) => [runId, this.#decodeRow(this.#runRow(experimentId, runId), experimentId)]),
          ),
      ),
    );
  }

  async readRecordPages(
    experimentId: string,
    visit: (page: RunRecord[]) => void | Promise<void>,
    options: RecordPagesOptions = {},
  ): Promise<void> {
    this.#ensureOpen();
    const read = <T>(fn: () => T) => this.#read(fn);
    const summaries = this.#schemaVersion() >= 5;
    await sqliteRecordPages({ db: this.#db, experimentId, visit, options, read, summaries });
  }

  async countRecords(experimentId: string, query: RecordQuery = {}): Promise<number> {
    return this.#read(() => {
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
    return this.#read(() =>
      this.#db
        .prepare(sql)
        .all(...params)
        .map(toSummary),
    );
  }

  async deleteExperiment(experimentId: string): Promise<boolean> {
    this.#taskOrder.delete(experimentId);
    return this.#write(`delete experiment ${experimentId}`, () => {
      // Records go with it (ON DELETE CASCADE), in the same statement's transaction.
      return this.#statements.deleteExperiment.run(experimentId).changes > 0;
    });
  }

  /** The connection's storage settings, for diagnostics and tests. */
  settings(): {
    journal_mode: unknown;
    synchronous: unknown;
    busy_timeout: unknown;
    schema_version: unknown;
  } {
    return this.#read(() => ({
      journal_mode: this.#db.pragma('journal_mode', { simple: true }),
      // 2 = FULL
      synchronous: this.#db.pragma('synchronous', { simple: true }),
      busy_timeout: this.#db.pragma('busy_timeout', { simple: true }),
      schema_version: this.#db.pragma('user_version', { simple: true }),
    }));
  }

  async acquireLease(
    experimentId: string,
    holder: LeaseHolder,
    replacing?: LeaseHolder,
  ): Promise<LeaseHolder> {
    const next = LeaseHolderSchema.parse(holder);
    return this.#write(`take the lease of experiment ${experimentId}`, () =>
      this.#db
        .transaction(() => {
          if (this.#statements.experimentDocument.get(experimentId) === undefined)
            throw notFound(experimentId, this.path);
          const current = this.#lease(experimentId);
          if (current === undefined || (replacing !== undefined && sameProcess(current, replacing))) {
            this.#book().setLease.run(experimentId, JSON.stringify(next));
            return next;
          }
          return current;
        })
        .immediate(),
    );
  }

  async releaseLease(experimentId: string, holder: LeaseHolder): Promise<void> {
    await this.#write(`give up the lease of experiment ${experimentId}`, () =>
      this.#db
        .transaction(() => {
          const current = this.#lease(experimentId);
          if (current !== undefined && sameProcess(current, holder))
            this.#book().deleteLease.run(experimentId);
        })
        .immediate(),
    );
  }

  async recordChildProcess(experimentId: string, child: ChildProcessRecord): Promise<void> {
    const parsed = ChildProcessSchema.parse(child);
    await this.#write(`record process ${parsed.pid} of experiment ${experimentId}`, () => {
      try {
        this.#book().recordChild.run(experimentId, parsed.pid, JSON.stringify(parsed));
      } catch (error) {
        if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
          throw notFound(experimentId, this.path);
        throw error;
      }
    });
  }

  async forgetChildProcess(experimentId: string, pid: number): Promise<void> {
    await this.#write(`forget process ${pid} of experiment ${experimentId}`, () => {
      this.#book().forgetChild.run(experimentId, pid);
    });
  }

  async listChildProcesses(): Promise<StoredChildProcess[]> {
    return this.#read(() =>
      this.#book()
        .children.all()
        .map((raw) => {
          const row = raw as { experiment_id?: unknown; document?: unknown };
          const parsed =
            typeof row.document === 'string'
              ? ChildProcessSchema.safeParse(safeJson(row.document))
              : undefined;
          if (typeof row.experiment_id !== 'string' || parsed === undefined || !parsed.success)
            throw new HarnessEvalError('store', `a recorded child process in ${this.path} is corrupt`);
          return { ...parsed.data, experiment_id: row.experiment_id };
        }),
    );
  }

  async addAnnotation(
    experimentId: string,
    annotation: AnnotationInput,
    times?: AnnotationTimes,
  ): Promise<Annotation> {
    const write = prepareAnnotation(experimentId, annotation, this.#redact, times);
    const id = await this.#write(`annotate run ${write.runId} of experiment ${experimentId}`, () =>
      this.#db
        .transaction(() => {
          const added = this.#notes().add.run({
            experiment_id: experimentId,
            run_id: write.runId,
            created_at: write.createdAt,
            document: write.document,
          });
          if (added.changes > 0) return Number(added.lastInsertRowid);
          if (this.#statements.experimentDocument.get(experimentId) === undefined)
            throw notFound(experimentId, this.path);
          throw unknownRun(experimentId, write.runId);
        })
        .immediate(),
    );
    return decodeAnnotation(id, experimentId, write.runId, write.document);
  }

  async listAnnotations(experimentId: string): Promise<Annotation[]> {
    return this.#read(() => {
      // A read-only file from before annotations (version 3) has none.
      if (userVersion(this.#db) < 4) return [];
      return this.#notes()
        .list.all(experimentId)
        .map((raw) => {
          const row = raw as { id?: unknown; run_id?: unknown; document?: unknown };
          return decodeAnnotation(row.id, experimentId, row.run_id, row.document);
        });
    });
  }

  async updateAnnotation(experimentId: string, id: number, edit: AnnotationEdit): Promise<Annotation> {
    return this.#write(`edit annotation ${id} of experiment ${experimentId}`, () =>
      this.#db
        .transaction(() => {
          const raw = this.#notes().one.get(experimentId, id) as
            | { id?: unknown; run_id?: unknown; document?: unknown }
            | undefined;
          if (raw === undefined) throw unknownAnnotation(experimentId, id);
          const existing = decodeAnnotation(raw.id, experimentId, raw.run_id, raw.document);
          const document = prepareAnnotationEdit(existing, edit, this.#redact);
          this.#notes().update.run(document, experimentId, id);
          return decodeAnnotation(id, experimentId, existing.run_id, document);
        })
        .immediate(),
    );
  }

  async deleteAnnotation(experimentId: string, id: number): Promise<boolean> {
    return this.#write(
      `delete annotation ${id} of experiment ${experimentId}`,
      () => this.#notes().delete.run(experimentId, id).changes > 0,
    );
  }

  async close(): Promise<void> {
    if (this.#db.open) {
      this.#db.close();
      this.#cleanup();
    }
  }

  #notes(): AnnotationStatements {
    this.#annotations ??= prepareAnnotations(this.#db);
    return this.#annotations;
  }

  #book(): BookkeepingStatements {
    this.#bookkeeping ??= prepareBookkeeping(this.#db);
    return this.#bookkeeping;
  }

  #lease(experimentId: string): LeaseHolder | undefined {
    const raw = this.#book().lease.get(experimentId) as { holder?: unknown } | undefined;
    if (raw === undefined) return undefined;
    const parsed =
      typeof raw.holder === 'string' ? LeaseHolderSchema.safeParse(safeJson(raw.holder)) : undefined;
    if (parsed === undefined || !parsed.success)
      throw new HarnessEvalError(
        'store',
        `the lease of experiment ${experimentId} in ${this.path} is corrupt`,
      );
    return parsed.data;
  }

  #taskOrderOf(experimentId: string): ReadonlyMap<string, number> {
    const known = this.#taskOrder.get(experimentId);
    if (known !== undefined) return known;
    const experiment = this.#read(() => this.#readDocument(experimentId));
    if (experiment === undefined) throw notFound(experimentId, this.path);
    const indexes = taskIndexes(experiment);
    this.#taskOrder.set(experimentId, indexes);
    return indexes;
  }

  #readDocument(experimentId: string): Experiment | undefined {
    const text = this.#documentText(experimentId);
    return text === undefined ? undefined : decodeExperiment(text, experimentId);
  }

  /** The stored document's JSON text, unchecked. */
  #documentText(experimentId: string): string | undefined {
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
    if (query.outcome !== undefined) {
      where.push('outcome = ?');
      params.push(query.outcome);
    }
    // A file older than schema 6 (opened read-only) knows no finish time: every row is "new".
    if (query.finishedAfter !== undefined && this.#schemaVersion() >= 6) {
      where.push('(finished_at IS NULL OR finished_at > ?)');
      params.push(query.finishedAfter);
    }
    let sql = `SELECT ${columns} FROM records WHERE ${where.join(' AND ')}`;
    if (ordered) {
      const { offset, limit } = recordWindow(query);
      sql += ' ORDER BY task_index, task_id, epoch, rowid LIMIT ? OFFSET ?';
      params.push(limit ?? -1, offset);
    }
    return this.#db.prepare(sql).all(...params);
  }

  /** Rows of run_id and summary; a file older than schema 5 (opened read-only) has documents only. */
  #summaryRows(experimentId: string, query: RecordQuery): unknown[] {
    if (this.#schemaVersion() >= 5) return this.#recordRows(experimentId, query, 'run_id, summary');
    return this.#recordRows(experimentId, query, 'run_id, NULL AS summary');
  }

  #upsert() {
    this.#upsertRecord ??= prepareUpsertRecord(this.#db);
    return this.#upsertRecord;
  }

  #schemaVersion(): number {
    this.#version ??= userVersion(this.#db);
    return this.#version;
  }

  #documentOfRun(experimentId: string, runId: string): string {
    return recordRowOf(this.#runRow(experimentId, runId), experimentId).document;
  }

  #runRow(experimentId: string, runId: string): unknown {
    return this.#db
      .prepare('SELECT run_id, document FROM records WHERE experiment_id = ? AND run_id = ?')
      .get(experimentId, runId);
  }

  #decodeRow(raw: unknown, experimentId: string): RunRecord {
    const row = recordRowOf(raw, experimentId);
    return decodeRecord(row.document, experimentId, row.run_id);
  }

  #recordRow(experimentId: string, record: RunRecord, indexes: ReadonlyMap<string, number>) {
    return {
      experiment_id: experimentId,
      run_id: record.run_id,
      task_id: record.task_id,
      epoch: record.epoch,
      task_index: taskIndexOf(indexes, record.task_id),
      outcome: record.outcome,
      document: encodeDocument(record, this.#redact, `run ${record.run_id} of experiment ${experimentId}`),
      summary: summarySource(record, this.#redact),
      finished_at: finishedAt(record),
    };
  }

  #ensureOpen(): void {
    if (!this.#db.open) throw new HarnessEvalError('store', `the store ${this.path} is closed`);
  }

  #read<T>(fn: () => T): T {
    this.#ensureOpen();
    try {
      return fn();
    } catch (error) {
      if (HarnessEvalError.is(error)) throw error;
      throw new HarnessEvalError('store', `cannot read ${this.path}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
  }

  async #write<T>(action: string, fn: () => T): Promise<T> {
    this.#ensureOpen();
    try {
      return await retryWhileBusy(fn, this.#busyBudgetMs);
    } catch (error) {
      if (HarnessEvalError.is(error)) throw error;
      const busy = isBusy(error);
      const reason = busy
        ? `another process held the write lock for more than ${seconds(this.#busyBudgetMs)}`
        : errorMessage(error);
      throw new HarnessEvalError('store', `cannot ${action} in ${this.path}: ${reason}`, {
        cause: error,
        data: { busy },
      });
    }
  }
}

function seconds(ms: number): string {
  return `${ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000)} s`;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function recordRowOf(raw: unknown, experimentId: string): { run_id: string; document: string } {
  const row = RecordRowSchema.safeParse(raw);
  if (!row.success)
    throw new HarnessEvalError('store', `a stored run of experiment ${experimentId} is corrupt`);
  return row.data;
}

function notFound(experimentId: string, path: string): HarnessEvalError {
  return new HarnessEvalError('not_found', `no experiment ${experimentId} in ${path}`, {
    data: { experimentId },
  });
}
