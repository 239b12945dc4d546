import type { Annotation, AnnotationEdit, AnnotationInput, AnnotationTimes } from '../core/annotation.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import {
  decodeAnnotation,
  prepareAnnotation,
  prepareAnnotationEdit,
  unknownAnnotation,
  unknownRun,
} from './annotations.ts';
import { CommitBatcher } from './commit-batcher.ts';
import {
  checkExperiment,
  checkRecord,
  decodeExperiment,
  type ExperimentDocument,
  encodeDocument,
  patchDocument,
  splitExperiment,
  taskIndexes,
  taskIndexOf,
} from './documents.ts';
import { redactStoreLocation } from './location.ts';
import { type CountedAttempts, countAttempts } from './postgres-attempts.ts';
import * as bookkeeping from './postgres-bookkeeping.ts';
import { pgCode, refuseRepeatedTrials, repeatedTrial } from './postgres-errors.ts';
import { migratePostgres, quoteSchema } from './postgres-migrations.ts';
import { PostgresPool } from './postgres-pool.ts';
import { documentOf, PostgresReads } from './postgres-reads.ts';
import { type PostgresStatements, postgresStatements } from './postgres-sql.ts';
import { finishedAt, summarySource } from './record-summary.ts';
import { secretRedactor } from './redact.ts';
import type { ChildProcessRecord, LeaseHolder, StoredChildProcess } from './run-bookkeeping.ts';
import { TaskOrders } from './task-orders.ts';
import type {
  ExperimentFilter,
  ExperimentPatch,
  ExperimentStore,
  ExperimentSummary,
  RecordPagesOptions,
  RecordQuery,
  RecordSummary,
} from './types.ts';

export interface PostgresStoreOptions {
  /** Environment whose secret-looking values are scrubbed before writing (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Fail with `not_found` instead of creating the tables (read-only commands). */
  readonly mustExist?: boolean;
  /** The PostgreSQL schema holding the tables (default `harnesseval`, or the URL's `?schema=`). */
  readonly schema?: string;
  /** Connections kept open at most (default 10: a run commits up to `-j` records at once). */
  readonly poolSize?: number;
  /** Milliseconds to wait for a connection (default 10,000). */
  readonly connectTimeoutMs?: number;
  /**
   * `normal` (default, as SQLite's): commits do not wait for the server's WAL flush
   * (`synchronous_commit = off`), so a record survives this process being killed the moment
   * appendRecord resolves, but a crash of the server's machine may lose its last ~0.6 s of
   * commits. `full` waits for the flush (`synchronous_commit = on`, whatever the server's
   * default): a resolved append survives power loss, at one WAL fsync per trial.
   */
  readonly durability?: 'full' | 'normal';
}

/** Records written per statement by createExperiment (an import of 10,000 trials: 10 statements). */
const RECORD_BATCH = 1000;

/**
 * A record's columns after experiment_id: task_id, epoch, run_id, task_index, outcome, document,
 * summary, finished_at.
 */
type RecordRow = [string, number, string, number, string, string, string, string | null];
const ROW_COLUMNS = [0, 1, 2, 3, 4, 5, 6, 7] as const;

interface RecordWrite {
  readonly experimentId: string;
  readonly record: RunRecord;
  readonly row: RecordRow;
}

/**
 * The store on a PostgreSQL server, for a team's shared history and for workers on many machines.
 * Same contract, documents and redaction as the SQLite store; a trial (experiment, task, epoch)
 * has at most one record. Open it with `PostgresStore.open(url)` (it connects and migrates).
 */
export class PostgresStore implements ExperimentStore {
  /** The URL with its password replaced by `***`: what messages print. */
  readonly location: string;
  readonly schema: string;
  readonly #db: PostgresPool;
  readonly #sql: PostgresStatements;
  readonly #reads: PostgresReads;
  /** The schema, quoted for SQL. */
  readonly #s: string;
  readonly #redact: (text: string) => string;
  readonly #taskOrder = new TaskOrders();
  /** appendRecord's group commit: trials finishing together share one statement and one commit. */
  readonly #appends = new CommitBatcher<RecordWrite>({
    writeOne: (write) => this.#writeOne(write, 'replace').then(() => undefined),
    writeBatch: (writes) => this.#writeBatch(writes, 'replace').then(() => writes.map(() => undefined)),
    keys: writeKeys,
  });
  /**
   * appendRecordOnce's group commit (queue workers): each learns whether its record was the first.
   * A worker hands over the records of a group of finished trials in one turn; waiting that turn
   * out puts them all in one statement (else the first went alone and the rest in a second).
   */
  readonly #appendsOnce = new CommitBatcher<RecordWrite, boolean>({
    gather: () => new Promise<void>((resolve) => setImmediate(resolve)),
    writeOne: (write) => this.#writeOne(write, 'once'),
    writeBatch: async (writes) => {
      const stored = new Set(await this.#writeBatch(writes, 'once'));
      return writes.map((write) => stored.has(write.record.run_id));
    },
    keys: writeKeys,
  });

  private constructor(url: URL, schema: string, options: PostgresStoreOptions) {
    url.searchParams.delete('schema');
    this.#db = new PostgresPool(url, options);
    this.location = this.#db.location;
    this.schema = schema;
    this.#s = quoteSchema(schema);
    this.#sql = postgresStatements(this.#s);
    this.#reads = new PostgresReads(this.#db, this.#sql, this.#s);
    this.#redact = secretRedactor(options.env ?? process.env);
  }

  /** Connects, creates or upgrades the schema, and returns the store. */
  static async open(location: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    let url: URL;
    try {
      url = new URL(location);
    } catch (error) {
      throw new HarnessEvalError('usage', `not a PostgreSQL URL: ${redactStoreLocation(location)}`, {
        cause: error,
      });
    }
    const schema = options.schema ?? url.searchParams.get('schema') ?? 'harnesseval';
    const store = new PostgresStore(url, schema, options);
    try {
      await store.#db.withClient('open the store', (client) =>
        migratePostgres(client, { schema, shown: store.location, mustExist: options.mustExist === true }),
      );
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async createExperiment(experiment: Experiment): Promise<void> {
    const checked = checkExperiment(experiment);
    const { document, records } = splitExperiment(checked);
    refuseRepeatedTrials(checked.id, records);
    const indexes = taskIndexes(document);
    const rows = records.map((record) =>
      this.#recordRow(checked.id, checkRecord(checked.id, record), indexes),
    );
    const text = encodeDocument(document, this.#redact, `experiment ${checked.id}`);
    await this.#db.transaction(`store experiment ${checked.id}`, async (client) => {
      try {
        await client.query(this.#sql.insertExperiment, [
          checked.id,
          checked.name ?? null,
          checked.suite.id,
          checked.harness.name,
          checked.harness.version,
          checked.status,
          checked.outcome ?? null,
          checked.created_at,
          checked.finished_at ?? null,
          text,
        ]);
      } catch (error) {
        if (pgCode(error) !== '23505') throw error;
        throw new HarnessEvalError('store', `experiment ${checked.id} already exists in ${this.location}`, {
          data: { experimentId: checked.id },
        });
      }
      for (let start = 0; start < rows.length; start += RECORD_BATCH) {
        const batch = rows.slice(start, start + RECORD_BATCH);
        const column = (i: number) => batch.map((row) => row[i]);
        await client.query(this.#sql.insertRecords, [checked.id, ...ROW_COLUMNS.map(column)]);
      }
    });
    this.#taskOrder.set(checked.id, indexes);
  }

  async appendRecord(experimentId: string, record: RunRecord): Promise<void> {
    await this.#appends.add(await this.#prepareWrite(experimentId, record));
  }

  /**
   * Stores the record unless its trial (task, epoch) already has one; true when it was stored.
   * What a queue worker commits: a retried or late duplicate of a trial changes nothing.
   */
  async appendRecordOnce(experimentId: string, record: RunRecord): Promise<boolean> {
    return this.#appendsOnce.add(await this.#prepareWrite(experimentId, record));
  }

  /** See postgres-attempts.ts: a queue's retry of a trial already stored, counted in its record. */
  async countAttempts(trial: CountedAttempts): Promise<boolean> {
    return this.#db.transaction(`count the attempts of run ${trial.taskId}#${trial.epoch}`, (client) =>
      countAttempts(client, this.#s, this.#redact, trial),
    );
  }

  async updateExperiment(experimentId: string, patch: ExperimentPatch): Promise<void> {
    // Only the patch is validated (documents.ts: patchDocument), not the stored suite again.
    await this.#updateLocked(experimentId, () => patch);
  }

  /**
   * Reads the experiment under a row lock (`SELECT … FOR UPDATE`), asks `decide` for a patch and
   * applies it before the lock is released; returns whether a patch was applied. Callers racing
   * on one experiment run one at a time, each seeing what the one before wrote — so "finish the
   * experiment once" is `decide: (e) => e.status === 'running' ? finish(e) : undefined`.
   * `decide` sees the document without records.
   */
  async updateExperimentLocked(
    experimentId: string,
    decide: (
      experiment: ExperimentDocument,
    ) => ExperimentPatch | undefined | Promise<ExperimentPatch | undefined>,
  ): Promise<boolean> {
    return this.#updateLocked(experimentId, (text) =>
      decide(splitExperiment(decodeExperiment(text, experimentId)).document),
    );
  }

  async #updateLocked(
    experimentId: string,
    decide: (text: string) => ExperimentPatch | undefined | Promise<ExperimentPatch | undefined>,
  ): Promise<boolean> {
    return this.#db.transaction(`update experiment ${experimentId}`, async (client) => {
      const locked = await client.query(this.#sql.lockExperiment, [experimentId]);
      const text = documentOf(locked.rows[0], experimentId);
      if (text === undefined) throw this.#notFound(experimentId);
      const patch = await decide(text);
      if (patch === undefined) return false;
      const next = patchDocument(text, experimentId, patch);
      await client.query(this.#sql.updateExperiment, [
        experimentId,
        next.status,
        next.outcome ?? null,
        next.finished_at ?? null,
        encodeDocument(next, this.#redact, `experiment ${experimentId}`),
      ]);
      return true;
    });
  }

  async getExperiment(experimentId: string): Promise<Experiment | undefined> {
    return this.#reads.getExperiment(experimentId);
  }

  /** The experiment without its records (a worker's view of what to run); undefined if absent. */
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

  /** How many records the experiment has, by outcome (`pass`, `fail`, `error`, `pending`). */
  async outcomeCounts(experimentId: string): Promise<Record<string, number>> {
    return this.#reads.outcomeCounts(experimentId);
  }

  async listExperiments(filter: ExperimentFilter = {}): Promise<ExperimentSummary[]> {
    return this.#reads.listExperiments(filter);
  }

  async deleteExperiment(experimentId: string): Promise<boolean> {
    this.#taskOrder.delete(experimentId);
    return this.#db.withClient(`delete experiment ${experimentId}`, async (client) => {
      // Records go with it (ON DELETE CASCADE).
      const result = await client.query(this.#sql.deleteExperiment, [experimentId]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  async acquireLease(
    experimentId: string,
    holder: LeaseHolder,
    replacing?: LeaseHolder,
  ): Promise<LeaseHolder> {
    const got = await this.#db.transaction(`take the lease of experiment ${experimentId}`, (client) =>
      bookkeeping.acquireLease(client, this.#s, experimentId, holder, replacing),
    );
    if (got === undefined) throw this.#notFound(experimentId);
    return got;
  }

  async releaseLease(experimentId: string, holder: LeaseHolder): Promise<void> {
    await this.#db.transaction(`give up the lease of experiment ${experimentId}`, (client) =>
      bookkeeping.releaseLease(client, this.#s, experimentId, holder),
    );
  }

  async recordChildProcess(experimentId: string, child: ChildProcessRecord): Promise<void> {
    const recorded = await this.#db.withClient(
      `record process ${child.pid} of experiment ${experimentId}`,
      (client) => bookkeeping.recordChildProcess(client, this.#s, experimentId, child),
    );
    if (!recorded) throw this.#notFound(experimentId);
  }

  async forgetChildProcess(experimentId: string, pid: number): Promise<void> {
    await this.#db.withClient(`forget process ${pid} of experiment ${experimentId}`, (client) =>
      bookkeeping.forgetChildProcess(client, this.#s, experimentId, pid),
    );
  }

  async listChildProcesses(): Promise<StoredChildProcess[]> {
    return this.#db.withClient('list recorded child processes', (client) =>
      bookkeeping.listChildProcesses(client, this.#s),
    );
  }

  async addAnnotation(
    experimentId: string,
    annotation: AnnotationInput,
    times?: AnnotationTimes,
  ): Promise<Annotation> {
    const write = prepareAnnotation(experimentId, annotation, this.#redact, times);
    const id = await this.#db.withClient(
      `annotate run ${write.runId} of experiment ${experimentId}`,
      async (client) => {
        const added = await client.query<{ id: string }>(
          `INSERT INTO ${this.#s}.annotations (experiment_id, run_id, created_at, document)
           SELECT $1, $2, $3, $4
           WHERE EXISTS (SELECT 1 FROM ${this.#s}.records WHERE experiment_id = $1 AND run_id = $2)
           RETURNING id`,
          [experimentId, write.runId, write.createdAt, write.document],
        );
        if (added.rows[0] !== undefined) return added.rows[0].id;
        const known = await client.query(this.#sql.experimentDocument, [experimentId]);
        if (known.rowCount === 0) throw this.#notFound(experimentId);
        throw unknownRun(experimentId, write.runId);
      },
    );
    return decodeAnnotation(id, experimentId, write.runId, write.document);
  }

  async listAnnotations(experimentId: string): Promise<Annotation[]> {
    return this.#db.withClient(`read the annotations of experiment ${experimentId}`, async (client) => {
      const rows = await client.query<{ id: string; run_id: unknown; document: unknown }>(
        `SELECT id, run_id, document FROM ${this.#s}.annotations WHERE experiment_id = $1 ORDER BY id`,
        [experimentId],
      );
      return rows.rows.map((row) => decodeAnnotation(row.id, experimentId, row.run_id, row.document));
    });
  }

  async updateAnnotation(experimentId: string, id: number, edit: AnnotationEdit): Promise<Annotation> {
    return this.#db.transaction(`edit annotation ${id} of experiment ${experimentId}`, async (client) => {
      const found = await client.query<{ id: string; run_id: unknown; document: unknown }>(
        `SELECT id, run_id, document FROM ${this.#s}.annotations WHERE experiment_id = $1 AND id = $2 FOR UPDATE`,
        [experimentId, id],
      );
      const row = found.rows[0];
      if (row === undefined) throw unknownAnnotation(experimentId, id);
      const existing = decodeAnnotation(row.id, experimentId, row.run_id, row.document);
      const document = prepareAnnotationEdit(existing, edit, this.#redact);
      await client.query(
        `UPDATE ${this.#s}.annotations SET document = $3 WHERE experiment_id = $1 AND id = $2`,
        [experimentId, id, document],
      );
      return decodeAnnotation(id, experimentId, existing.run_id, document);
    });
  }

  async deleteAnnotation(experimentId: string, id: number): Promise<boolean> {
    return this.#db.withClient(`delete annotation ${id} of experiment ${experimentId}`, async (client) => {
      const deleted = await client.query(
        `DELETE FROM ${this.#s}.annotations WHERE experiment_id = $1 AND id = $2`,
        [experimentId, id],
      );
      return (deleted.rowCount ?? 0) > 0;
    });
  }

  /** The connection's settings, for diagnostics and tests. */
  async settings(): Promise<{ synchronous_commit: string; schema_version: number }> {
    return this.#db.withClient('read the settings', async (client) => {
      const sync = await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
      const version = await client.query<{ version: number }>(
        `SELECT max(version) AS version FROM ${quoteSchema(this.schema)}.migrations`,
      );
      return {
        synchronous_commit: sync.rows[0]?.synchronous_commit ?? '',
        schema_version: version.rows[0]?.version ?? 0,
      };
    });
  }

  async close(): Promise<void> {
    await this.#appends.idle();
    await this.#appendsOnce.idle();
    await this.#db.end();
  }

  async #prepareWrite(experimentId: string, record: RunRecord): Promise<RecordWrite> {
    const checked = checkRecord(experimentId, record);
    const row = this.#recordRow(experimentId, checked, await this.#taskOrderOf(experimentId));
    return { experimentId, record: checked, row };
  }

  /** One statement for all `writes`; the run_ids it stored (`once`: those whose trial had no record). */
  async #writeBatch(writes: readonly RecordWrite[], mode: 'replace' | 'once'): Promise<string[]> {
    const column = (i: number) => writes.map((write) => write.row[i]);
    const values = [writes.map((write) => write.experimentId), ...ROW_COLUMNS.map(column)];
    const statement = mode === 'replace' ? this.#sql.upsertRecords : this.#sql.insertRecordsOnce;
    return this.#db.withClient(`store ${writes.length} runs`, async (client) => {
      const { rows } = await client.query({ ...statement, values });
      return mode === 'replace' ? [] : rows.map((row: { run_id: string }) => row.run_id);
    });
  }

  async #writeOne(
    { experimentId, record: checked, row }: RecordWrite,
    mode: 'replace' | 'once',
  ): Promise<boolean> {
    const statement = mode === 'replace' ? this.#sql.upsertRecord : this.#sql.insertRecordOnce;
    const action = `store run ${checked.run_id} of experiment ${experimentId}`;
    return this.#db.withClient(action, async (client) => {
      try {
        // One statement outside a transaction block commits on its own before it returns.
        const result = await client.query({ ...statement, values: [experimentId, ...row] });
        return (result.rowCount ?? 0) > 0;
      } catch (error) {
        if (pgCode(error) === '23503') {
          this.#taskOrder.delete(experimentId);
          throw this.#notFound(experimentId);
        }
        if (pgCode(error) === '23505') throw repeatedTrial(experimentId, checked, mode);
        throw error;
      }
    });
  }

  #taskOrderOf(experimentId: string): Promise<ReadonlyMap<string, number>> {
    return this.#taskOrder.of(experimentId, async () => {
      const text = await this.#reads.documentText(experimentId);
      if (text === undefined) throw this.#notFound(experimentId);
      return taskIndexes(decodeExperiment(text, experimentId));
    });
  }

  /** The row's values after experiment_id, in the statements' column order. */
  #recordRow(experimentId: string, record: RunRecord, indexes: ReadonlyMap<string, number>): RecordRow {
    return [
      record.task_id,
      record.epoch,
      record.run_id,
      taskIndexOf(indexes, record.task_id),
      record.outcome,
      encodeDocument(record, this.#redact, `run ${record.run_id} of experiment ${experimentId}`),
      summarySource(record, this.#redact),
      finishedAt(record),
    ];
  }

  #notFound(experimentId: string): HarnessEvalError {
    return new HarnessEvalError('not_found', `no experiment ${experimentId} in ${this.location}`, {
      data: { experimentId },
    });
  }
}

/** The unique keys a record write touches: its run_id and its trial (task, epoch). */
function writeKeys({ experimentId, record }: RecordWrite): string[] {
  return [
    JSON.stringify([experimentId, 'run', record.run_id]),
    JSON.stringify([experimentId, 'trial', record.task_id, record.epoch]),
  ];
}
