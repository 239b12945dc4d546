import type { Annotation, AnnotationEdit, AnnotationInput, AnnotationTimes } from '../core/annotation.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import { CommitBatcher } from './commit-batcher.ts';
import {
  checkExperiment,
  checkRecord,
  type ExperimentDocument,
  encodeDocument,
  patchDocument,
  splitExperiment,
  taskIndexes,
  taskIndexOf,
} from './documents.ts';
import { finishedAt, summarySource } from './record-summary.ts';
import { secretRedactor } from './redact.ts';
import type { ChildProcessRecord, LeaseHolder, StoredChildProcess } from './run-bookkeeping.ts';
import { SqliteAccess } from './sqlite-access.ts';
import { SqliteAnnotations } from './sqlite-annotations.ts';
import { SqliteBookkeeping } from './sqlite-bookkeeping.ts';
import { openSqlite } from './sqlite-open.ts';
import { SqliteReads } from './sqlite-reads.ts';
import { prepareStatements, prepareUpsertRecord, type Statements } from './sqlite-statements.ts';
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

/** One record as its row: what `appendRecord` commits. */
interface RecordRow {
  readonly experiment_id: string;
  readonly run_id: string;
  readonly task_id: string;
  readonly epoch: number;
  readonly task_index: number;
  readonly outcome: string;
  readonly document: string;
  readonly summary: string;
  readonly finished_at: string | null;
}

/** Commits closer together than this are a burst, which the store gathers into one transaction. */
const BURST_MS = 1;

/** One statement waits this long for a lock before the store retries it (the wait blocks). */
const STATEMENT_BUSY_MS = 100;
const DEFAULT_BUSY_BUDGET_MS = 30_000;

/**
 * The default store: one SQLite file in WAL mode. One process writes while others read.
 * `synchronous = FULL` makes every commit fsync the WAL, so a record is on disk when
 * `appendRecord` resolves even if the machine loses power (NORMAL only survives a process crash).
 * The writes of experiments and records are here; reads, run bookkeeping and annotations are in
 * sqlite-reads.ts, sqlite-bookkeeping.ts and sqlite-annotations.ts, over one connection.
 */
export class SqliteStore implements ExperimentStore {
  readonly path: string;
  readonly #access: SqliteAccess;
  readonly #redact: (text: string) => string;
  /** Task order per experiment: the suite never changes after creation, so it is read once. */
  readonly #taskOrder = new Map<string, ReadonlyMap<string, number>>();
  readonly #statements: Statements;
  readonly #reads: SqliteReads;
  readonly #bookkeeping: SqliteBookkeeping;
  readonly #annotations: SqliteAnnotations;

  readonly #cleanup: () => void;
  #upsertRecord: ReturnType<typeof prepareUpsertRecord> | undefined;

  constructor(path: string, options: SqliteStoreOptions = {}) {
    this.path = path;
    this.#redact = secretRedactor(options.env ?? process.env);
    const busyBudgetMs = Math.max(0, options.busyTimeoutMs ?? DEFAULT_BUSY_BUDGET_MS);
    const opened = openSqlite(path, {
      ...(options.mustExist === undefined ? {} : { mustExist: options.mustExist }),
      ...(options.readonly === undefined ? {} : { readonly: options.readonly }),
      ...(options.durability === undefined ? {} : { durability: options.durability }),
      busyTimeoutMs: Math.min(STATEMENT_BUSY_MS, busyBudgetMs),
    });
    this.#access = new SqliteAccess(opened.db, path, busyBudgetMs);
    this.#cleanup = opened.cleanup;
    this.#statements = prepareStatements(opened.db);
    this.#reads = new SqliteReads(this.#access, this.#statements);
    this.#bookkeeping = new SqliteBookkeeping(this.#access, this.#statements);
    this.#annotations = new SqliteAnnotations(this.#access, this.#statements, this.#redact);
  }

  async createExperiment(experiment: Experiment): Promise<void> {
    const checked = checkExperiment(experiment);
    const { document, records } = splitExperiment(checked);
    const indexes = taskIndexes(document);
    const recordRows = records.map((record) =>
      this.#recordRow(checked.id, checkRecord(checked.id, record), indexes),
    );
    const documentText = encodeDocument(document, this.#redact, `experiment ${checked.id}`);
    await this.#access.write(`store experiment ${checked.id}`, () => {
      this.#access.db
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
    await this.#appends.add(this.#recordRow(experimentId, checked, indexes));
  }

  /**
   * Group commit: the records of the trials that finish in one turn of the event loop go in one
   * transaction (one WAL commit, and with `full` one fsync, for all of them). Each `appendRecord`
   * still resolves only once its own record is committed; a failed batch is written row by row,
   * so each caller gets its own error.
   */
  #lastCommit = Number.NEGATIVE_INFINITY;
  readonly #appends = new CommitBatcher<RecordRow>({
    // Only while records arrive in a burst (the last commit under a millisecond ago): then a turn
    // of the loop gathers the burst. Trials of a slower agent are written at once, or waiting for
    // each other's turn would tie their slots together (50 ms agent: efficiency 0.94 -> 0.90).
    gather: () =>
      performance.now() - this.#lastCommit < BURST_MS
        ? new Promise((resolve) => setImmediate(resolve))
        : Promise.resolve(),
    keys: (row) => [`${row.experiment_id}\u0000${row.run_id}`],
    writeOne: (row) =>
      this.#access.write(`store run ${row.run_id} of experiment ${row.experiment_id}`, () => {
        this.#upsert().run(row);
        this.#lastCommit = performance.now();
      }),
    writeBatch: async (rows) => {
      await this.#access.write(`store ${rows.length} runs`, () => {
        this.#access.db.transaction(() => {
          for (const row of rows) this.#upsert().run(row);
        })();
        this.#lastCommit = performance.now();
      });
      return rows.map(() => undefined);
    },
  });

  async updateExperiment(experimentId: string, patch: ExperimentPatch): Promise<void> {
    await this.#access.write(`update experiment ${experimentId}`, () => {
      this.#access.db
        .transaction(() => {
          const text = this.#reads.documentText(experimentId);
          if (text === undefined) throw this.#access.notFound(experimentId);
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
    return this.#reads.getExperiment(experimentId);
  }

  async getExperimentDocument(experimentId: string): Promise<ExperimentDocument | undefined> {
    return this.#reads.getExperimentDocument(experimentId);
  }

  async listRecords(experimentId: string, query: RecordQuery = {}): Promise<RunRecord[]> {
    return this.#reads.listRecords(experimentId, query);
  }

  async listRecordSummaries(experimentId: string, query: RecordQuery = {}): Promise<RecordSummary[]> {
    return this.#reads.listRecordSummaries(experimentId, query);
  }

  async listTrialRecords(experimentId: string, query: RecordQuery = {}): Promise<RunRecord[]> {
    return this.#reads.listTrialRecords(experimentId, query);
  }

  async readRecordPages(
    experimentId: string,
    visit: (page: RunRecord[]) => void | Promise<void>,
    options: RecordPagesOptions = {},
  ): Promise<void> {
    return this.#reads.readRecordPages(experimentId, visit, options);
  }

  async countRecords(experimentId: string, query: RecordQuery = {}): Promise<number> {
    return this.#reads.countRecords(experimentId, query);
  }

  async listExperiments(filter: ExperimentFilter = {}): Promise<ExperimentSummary[]> {
    return this.#reads.listExperiments(filter);
  }

  async deleteExperiment(experimentId: string): Promise<boolean> {
    this.#taskOrder.delete(experimentId);
    return this.#access.write(`delete experiment ${experimentId}`, () => {
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
    cache_size: unknown;
  } {
    return this.#access.read(() => ({
      journal_mode: this.#access.db.pragma('journal_mode', { simple: true }),
      // 2 = FULL
      synchronous: this.#access.db.pragma('synchronous', { simple: true }),
      busy_timeout: this.#access.db.pragma('busy_timeout', { simple: true }),
      schema_version: this.#access.db.pragma('user_version', { simple: true }),
      // Negative: KiB.
      cache_size: this.#access.db.pragma('cache_size', { simple: true }),
    }));
  }

  async acquireLease(
    experimentId: string,
    holder: LeaseHolder,
    replacing?: LeaseHolder,
  ): Promise<LeaseHolder> {
    return this.#bookkeeping.acquireLease(experimentId, holder, replacing);
  }

  async releaseLease(experimentId: string, holder: LeaseHolder): Promise<void> {
    return this.#bookkeeping.releaseLease(experimentId, holder);
  }

  async recordChildProcess(experimentId: string, child: ChildProcessRecord): Promise<void> {
    return this.#bookkeeping.recordChildProcess(experimentId, child);
  }

  async forgetChildProcess(experimentId: string, pid: number): Promise<void> {
    return this.#bookkeeping.forgetChildProcess(experimentId, pid);
  }

  async listChildProcesses(): Promise<StoredChildProcess[]> {
    return this.#bookkeeping.listChildProcesses();
  }

  async addAnnotation(
    experimentId: string,
    annotation: AnnotationInput,
    times?: AnnotationTimes,
  ): Promise<Annotation> {
    return this.#annotations.addAnnotation(experimentId, annotation, times);
  }

  async listAnnotations(experimentId: string): Promise<Annotation[]> {
    return this.#annotations.listAnnotations(experimentId);
  }

  async updateAnnotation(experimentId: string, id: number, edit: AnnotationEdit): Promise<Annotation> {
    return this.#annotations.updateAnnotation(experimentId, id, edit);
  }

  async deleteAnnotation(experimentId: string, id: number): Promise<boolean> {
    return this.#annotations.deleteAnnotation(experimentId, id);
  }

  async close(): Promise<void> {
    await this.#appends.idle();
    if (this.#access.db.open) {
      this.#access.db.close();
      this.#cleanup();
    }
  }

  #taskOrderOf(experimentId: string): ReadonlyMap<string, number> {
    const known = this.#taskOrder.get(experimentId);
    if (known !== undefined) return known;
    const experiment = this.#access.read(() => this.#reads.readDocument(experimentId));
    if (experiment === undefined) throw this.#access.notFound(experimentId);
    const indexes = taskIndexes(experiment);
    this.#taskOrder.set(experimentId, indexes);
    return indexes;
  }

  #upsert() {
    this.#upsertRecord ??= prepareUpsertRecord(this.#access.db);
    return this.#upsertRecord;
  }

  #recordRow(experimentId: string, record: RunRecord, indexes: ReadonlyMap<string, number>): RecordRow {
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
}
