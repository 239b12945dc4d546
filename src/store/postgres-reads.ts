import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import { decodeExperiment, decodeRecord, type ExperimentDocument, splitExperiment } from './documents.ts';
import type { PostgresPool } from './postgres-pool.ts';
import { listExperimentsQuery, type PostgresStatements, recordsQuery } from './postgres-sql.ts';
import { recordPageSize, summarizeRecord, summaryOfRow } from './record-summary.ts';
import { DocumentRowSchema, RecordRowSchema, toSummary } from './sqlite-statements.ts';
import { trialRecordsOfRows } from './trial-record.ts';
import type {
  ExperimentFilter,
  ExperimentSummary,
  RecordPagesOptions,
  RecordQuery,
  RecordSummary,
} from './types.ts';

/**
 * The PostgreSQL store's reads of experiments and records: what `compare`, `timeline`, the viewer
 * and a worker's plan read. Apart from the writes (postgres-store.ts), which group-commit records
 * and take row locks; the reads share only the pool and the statements.
 */
export class PostgresReads {
  readonly #db: PostgresPool;
  readonly #sql: PostgresStatements;
  /** The schema, quoted for SQL. */
  readonly #s: string;

  constructor(db: PostgresPool, sql: PostgresStatements, quotedSchema: string) {
    this.#db = db;
    this.#sql = sql;
    this.#s = quotedSchema;
  }

  async getExperiment(experimentId: string): Promise<Experiment | undefined> {
    // One snapshot: the document and the records agree even while workers commit.
    return this.#db.transaction(
      `read experiment ${experimentId}`,
      async (client) => {
        const found = await client.query({ ...this.#sql.experimentDocument, values: [experimentId] });
        const text = documentOf(found.rows[0], experimentId);
        if (text === undefined) return undefined;
        const experiment = decodeExperiment(text, experimentId);
        const rows = await client.query({ ...this.#sql.recordsInOrder, values: [experimentId] });
        return { ...experiment, records: decodeRecordRows(rows.rows, experimentId) };
      },
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
  }

  /** The experiment's stored document text; undefined if absent. */
  async documentText(experimentId: string): Promise<string | undefined> {
    return this.#db.withClient(`read experiment ${experimentId}`, async (client) =>
      documentOf(
        (await client.query({ ...this.#sql.experimentDocument, values: [experimentId] })).rows[0],
        experimentId,
      ),
    );
  }

  async getExperimentDocument(experimentId: string): Promise<ExperimentDocument | undefined> {
    const text = await this.documentText(experimentId);
    return text === undefined ? undefined : splitExperiment(decodeExperiment(text, experimentId)).document;
  }

  async listRecords(experimentId: string, query: RecordQuery = {}): Promise<RunRecord[]> {
    return decodeRecordRows(await this.#recordRows(experimentId, query, 'run_id, document'), experimentId);
  }

  async listRecordSummaries(experimentId: string, query: RecordQuery = {}): Promise<RecordSummary[]> {
    const rows = await this.#recordRows(experimentId, query, 'run_id, summary');
    const summaries: RecordSummary[] = [];
    for (const raw of rows) {
      const row = raw as { run_id?: unknown; summary?: unknown };
      if (typeof row.run_id !== 'string' || (row.summary !== null && typeof row.summary !== 'string'))
        throw new HarnessEvalError('store', `a stored run of experiment ${experimentId} is corrupt`);
      const runId = row.run_id;
      // A row without a valid summary (written before the column) is read whole.
      const found = summaryOfRow({ run_id: runId, summary: row.summary });
      summaries.push(
        found ?? summarizeRecord(await this.#documentOfRun(experimentId, runId), experimentId, runId),
      );
    }
    return summaries;
  }

  async listTrialRecords(experimentId: string, query: RecordQuery = {}): Promise<RunRecord[]> {
    const rows = await this.#recordRows(experimentId, query, 'run_id, summary');
    return trialRecordsOfRows(rows, experimentId, async (runIds) => {
      // Rows written before the trial fields: their documents, in one query.
      const found = await this.#db.withClient(
        `read the runs of experiment ${experimentId}`,
        async (client) =>
          (
            await client.query(
              `SELECT run_id, document FROM ${this.#s}.records WHERE experiment_id = $1 AND run_id = ANY($2::text[])`,
              [experimentId, runIds],
            )
          ).rows,
      );
      return new Map(decodeRecordRows(found, experimentId).map((record) => [record.run_id, record]));
    });
  }

  /**
   * The records in suite order, a page at a time, as SQLite reads them (sqlite-pages.ts): the
   * run ids first, sorted once by the server, then each page by run id (the records_run_id
   * index), each read its own statement. So no transaction, snapshot or connection is held
   * between pages: a resume reads its kept records as its run reaches them, for as long as the
   * run takes, and a snapshot held that long would keep VACUUM off every table of the server
   * (the queue's jobs churn) and a pooled connection from the run. The set is fixed when the read
   * starts: a record written since is not handed over, one deleted since is left out.
   */
  async readRecordPages(
    experimentId: string,
    visit: (page: RunRecord[]) => void | Promise<void>,
    options: RecordPagesOptions = {},
  ): Promise<void> {
    const whole = options.whole === true;
    const size = recordPageSize(options);
    const label = `read the runs of experiment ${experimentId}`;
    const runIds = await this.#db.withClient(label, async (client) => {
      const { outcomes } = options;
      const only = outcomes === undefined ? '' : ' AND outcome = ANY($2::text[])';
      const found = await client.query({
        text: `SELECT run_id FROM ${this.#s}.records WHERE experiment_id = $1${only} ORDER BY task_index, task_id, epoch`,
        values: outcomes === undefined ? [experimentId] : [experimentId, outcomes],
        rowMode: 'array',
      });
      return found.rows.map((row: unknown[]) => row[0]);
    });
    if (!runIds.every((id): id is string => typeof id === 'string'))
      throw new HarnessEvalError('store', `a stored run of experiment ${experimentId} is corrupt`);
    const documents = async (ids: readonly string[]) => {
      const found = await this.#db.withClient(label, (client) =>
        client.query(
          `SELECT run_id, document FROM ${this.#s}.records WHERE experiment_id = $1 AND run_id = ANY($2::text[])`,
          [experimentId, ids],
        ),
      );
      return new Map(decodeRecordRows(found.rows, experimentId).map((r) => [r.run_id, r]));
    };
    for (let at = 0; at < runIds.length; at += size) {
      const wanted = runIds.slice(at, at + size);
      const rows = await this.#db.withClient(
        label,
        async (client) =>
          (
            await client.query(
              `SELECT r.run_id, r.${whole ? 'document' : 'summary'}
               FROM unnest($2::text[]) WITH ORDINALITY AS k (run_id, n)
               JOIN ${this.#s}.records r ON r.experiment_id = $1 AND r.run_id = k.run_id
               ORDER BY k.n`,
              [experimentId, wanted],
            )
          ).rows,
      );
      const page = whole
        ? decodeRecordRows(rows, experimentId)
        : await trialRecordsOfRows(rows, experimentId, documents);
      await visit(page);
    }
  }

  async countRecords(experimentId: string, query: RecordQuery = {}): Promise<number> {
    const rows = await this.#recordRows(
      experimentId,
      { ...query, offset: 0 },
      'count(*)::integer AS n',
      false,
    );
    const n = (rows[0] as { n?: unknown } | undefined)?.n;
    if (typeof n !== 'number')
      throw new HarnessEvalError('store', `cannot count the runs of experiment ${experimentId}`);
    return n;
  }

  /** How many records the experiment has, by outcome (`pass`, `fail`, `error`, `pending`). */
  async outcomeCounts(experimentId: string): Promise<Record<string, number>> {
    return this.#db.withClient(`count the runs of experiment ${experimentId}`, async (client) => {
      const rows = await client.query<{ outcome: string; n: number }>({
        ...this.#sql.outcomeCounts,
        values: [experimentId],
      });
      return Object.fromEntries(rows.rows.map((row) => [row.outcome, row.n]));
    });
  }

  async listExperiments(filter: ExperimentFilter = {}): Promise<ExperimentSummary[]> {
    const query = listExperimentsQuery(this.#s, filter);
    return this.#db.withClient('list experiments', async (client) =>
      (await client.query(query.text, query.values)).rows.map(toSummary),
    );
  }

  async #documentOfRun(experimentId: string, runId: string): Promise<string> {
    const rows = await this.#db.withClient(
      `read run ${runId} of experiment ${experimentId}`,
      async (client) =>
        (
          await client.query(
            `SELECT run_id, document FROM ${this.#s}.records WHERE experiment_id = $1 AND run_id = $2`,
            [experimentId, runId],
          )
        ).rows,
    );
    return recordRow(rows[0], experimentId).document;
  }

  async #recordRows(
    experimentId: string,
    query: RecordQuery,
    columns: string,
    ordered = true,
  ): Promise<unknown[]> {
    const select = recordsQuery(this.#s, experimentId, query, columns, ordered);
    return this.#db.withClient(
      `read the runs of experiment ${experimentId}`,
      async (client) => (await client.query(select.text, select.values)).rows,
    );
  }
}

function recordRow(raw: unknown, experimentId: string): { run_id: string; document: string } {
  const row = RecordRowSchema.safeParse(raw);
  if (!row.success)
    throw new HarnessEvalError('store', `a stored run of experiment ${experimentId} is corrupt`);
  return row.data;
}

function decodeRecordRows(rows: readonly unknown[], experimentId: string): RunRecord[] {
  return rows.map((raw) => {
    const row = recordRow(raw, experimentId);
    return decodeRecord(row.document, experimentId, row.run_id);
  });
}

/** An experiments row's document text; undefined for no row, `store` for a damaged one. */
export function documentOf(raw: unknown, experimentId: string): string | undefined {
  if (raw === undefined) return undefined;
  const row = DocumentRowSchema.safeParse(raw);
  if (!row.success) throw new HarnessEvalError('store', `stored experiment ${experimentId} is corrupt`);
  return row.data.document;
}
