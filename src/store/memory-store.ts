import type { Annotation, AnnotationEdit, AnnotationInput, AnnotationTimes } from '../core/annotation.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { Outcome, RunRecord } from '../core/run-record.ts';
import {
  decodeAnnotation,
  prepareAnnotation,
  prepareAnnotationEdit,
  unknownAnnotation,
  unknownRun,
} from './annotations.ts';
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
import {
  finishedAt,
  queriedOutcomes,
  recordPageSize,
  recordWindow,
  summarizeRecord,
} from './record-summary.ts';
import { secretRedactor } from './redact.ts';
import {
  type ChildProcessRecord,
  ChildProcessSchema,
  type LeaseHolder,
  LeaseHolderSchema,
  type StoredChildProcess,
  sameProcess,
} from './run-bookkeeping.ts';
import { trialRecord } from './trial-record.ts';
import type {
  ExperimentFilter,
  ExperimentPatch,
  ExperimentStore,
  ExperimentSummary,
  RecordPagesOptions,
  RecordQuery,
  RecordSummary,
} from './types.ts';

interface StoredRecord {
  readonly runId: string;
  readonly taskId: string;
  readonly epoch: number;
  readonly outcome: Outcome;
  readonly taskIndex: number;
  /** `finishedAt` of the record (what `RecordQuery.finishedAfter` compares). */
  readonly finishedAt: string | null;
  readonly document: string;
}

interface StoredExperiment {
  readonly seq: number;
  document: string;
  readonly taskOrder: ReadonlyMap<string, number>;
  /** Keyed by run_id; a Map keeps first-insertion order, the last tie-breaker (as SQLite's rowid). */
  readonly records: Map<string, StoredRecord>;
  lease?: LeaseHolder;
  /** Keyed by pid, with the order they were recorded in. */
  readonly children: Map<number, { readonly seq: number; readonly child: ChildProcessRecord }>;
  readonly annotations: { readonly id: number; readonly runId: string; document: string }[];
}

export interface MemoryStoreOptions {
  /** Environment whose secret-looking values are scrubbed before storing (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The in-memory store for tests and throwaway runs (`--no-store`). It keeps documents as JSON
 * text, exactly like the SQLite store, so it behaves the same: callers get copies, secrets are
 * scrubbed, and what comes back has been validated.
 */
export class MemoryStore implements ExperimentStore {
  readonly #experiments = new Map<string, StoredExperiment>();
  readonly #redact: (text: string) => string;
  #seq = 0;
  #annotationSeq = 0;
  #closed = false;

  constructor(options: MemoryStoreOptions = {}) {
    this.#redact = secretRedactor(options.env ?? process.env);
  }

  async createExperiment(experiment: Experiment): Promise<void> {
    this.#ensureOpen();
    const checked = checkExperiment(experiment);
    if (this.#experiments.has(checked.id)) {
      throw new HarnessEvalError('store', `experiment ${checked.id} already exists in memory`, {
        data: { experimentId: checked.id },
      });
    }
    const { document, records } = splitExperiment(checked);
    const stored: StoredExperiment = {
      seq: this.#seq++,
      document: encodeDocument(document, this.#redact, `experiment ${checked.id}`),
      taskOrder: taskIndexes(document),
      records: new Map(),
      children: new Map(),
      annotations: [],
    };
    const rows = records.map((record) => this.#row(stored, checked.id, checkRecord(checked.id, record)));
    for (const row of rows) stored.records.set(row.runId, row);
    this.#experiments.set(checked.id, stored);
  }

  async appendRecord(experimentId: string, record: RunRecord): Promise<void> {
    this.#ensureOpen();
    const stored = this.#get(experimentId);
    const row = this.#row(stored, experimentId, checkRecord(experimentId, record));
    stored.records.set(row.runId, row);
  }

  async updateExperiment(experimentId: string, patch: ExperimentPatch): Promise<void> {
    this.#ensureOpen();
    const stored = this.#get(experimentId);
    const next = patchDocument(stored.document, experimentId, patch);
    stored.document = encodeDocument(next, this.#redact, `experiment ${experimentId}`);
  }

  async getExperiment(experimentId: string): Promise<Experiment | undefined> {
    this.#ensureOpen();
    const stored = this.#experiments.get(experimentId);
    if (stored === undefined) return undefined;
    const experiment = decodeExperiment(stored.document, experimentId);
    const rows = this.#selected(stored, {});
    return { ...experiment, records: rows.map((row) => decodeRecord(row.document, experimentId, row.runId)) };
  }

  async getExperimentDocument(experimentId: string): Promise<ExperimentDocument | undefined> {
    this.#ensureOpen();
    const stored = this.#experiments.get(experimentId);
    return stored === undefined
      ? undefined
      : splitExperiment(decodeExperiment(stored.document, experimentId)).document;
  }

  async listRecords(experimentId: string, query: RecordQuery = {}): Promise<RunRecord[]> {
    return this.#window(experimentId, query).map((row) =>
      decodeRecord(row.document, experimentId, row.runId),
    );
  }

  async listRecordSummaries(experimentId: string, query: RecordQuery = {}): Promise<RecordSummary[]> {
    return this.#window(experimentId, query).map((row) =>
      summarizeRecord(row.document, experimentId, row.runId),
    );
  }

  async listTrialRecords(experimentId: string, query: RecordQuery = {}): Promise<RunRecord[]> {
    return this.#window(experimentId, query).map((row) =>
      trialRecord(decodeRecord(row.document, experimentId, row.runId)),
    );
  }

  async readRecordPages(
    experimentId: string,
    visit: (page: RunRecord[]) => void | Promise<void>,
    options: RecordPagesOptions = {},
  ): Promise<void> {
    this.#ensureOpen();
    const stored = this.#experiments.get(experimentId);
    if (stored === undefined) return;
    const rows = this.#selected(stored, options.outcomes === undefined ? {} : { outcome: options.outcomes });
    const size = recordPageSize(options);
    for (let at = 0; at < rows.length; at += size) {
      const page = rows.slice(at, at + size).map((row) => {
        const record = decodeRecord(row.document, experimentId, row.runId);
        return options.whole === true ? record : trialRecord(record);
      });
      await visit(page);
    }
  }

  async countRecords(experimentId: string, query: RecordQuery = {}): Promise<number> {
    this.#ensureOpen();
    const stored = this.#experiments.get(experimentId);
    return stored === undefined ? 0 : this.#selected(stored, query).length;
  }

  async listExperiments(filter: ExperimentFilter = {}): Promise<ExperimentSummary[]> {
    this.#ensureOpen();
    const summaries: (ExperimentSummary & { seq: number })[] = [];
    for (const [id, stored] of this.#experiments) {
      const e = decodeExperiment(stored.document, id);
      if (filter.harness !== undefined && e.harness.name !== filter.harness) continue;
      if (filter.suite !== undefined && e.suite.id !== filter.suite) continue;
      if (filter.status !== undefined && e.status !== filter.status) continue;
      if (filter.idPrefix !== undefined && !id.startsWith(filter.idPrefix)) continue;
      summaries.push({
        seq: stored.seq,
        id,
        name: e.name,
        suite_id: e.suite.id,
        harness_name: e.harness.name,
        harness_version: e.harness.version,
        status: e.status,
        created_at: e.created_at,
        finished_at: e.finished_at,
        records: stored.records.size,
        outcome: e.outcome,
      });
    }
    // Newest first; equal timestamps: the later insert first (as SQLite orders by rowid).
    summaries.sort((a, b) =>
      a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.seq - a.seq,
    );
    const limited =
      filter.limit === undefined ? summaries : summaries.slice(0, Math.max(0, Math.trunc(filter.limit)));
    return limited.map(({ seq: _seq, ...summary }) => summary);
  }

  async deleteExperiment(experimentId: string): Promise<boolean> {
    this.#ensureOpen();
    return this.#experiments.delete(experimentId);
  }

  async acquireLease(
    experimentId: string,
    holder: LeaseHolder,
    replacing?: LeaseHolder,
  ): Promise<LeaseHolder> {
    this.#ensureOpen();
    const stored = this.#get(experimentId);
    const next = LeaseHolderSchema.parse(holder);
    const current = stored.lease;
    if (current === undefined || (replacing !== undefined && sameProcess(current, replacing))) {
      stored.lease = next;
      return { ...next };
    }
    return { ...current };
  }

  async releaseLease(experimentId: string, holder: LeaseHolder): Promise<void> {
    this.#ensureOpen();
    const stored = this.#experiments.get(experimentId);
    if (stored?.lease !== undefined && sameProcess(stored.lease, holder)) delete stored.lease;
  }

  async recordChildProcess(experimentId: string, child: ChildProcessRecord): Promise<void> {
    this.#ensureOpen();
    const stored = this.#get(experimentId);
    const parsed = ChildProcessSchema.parse(child);
    stored.children.delete(parsed.pid);
    stored.children.set(parsed.pid, { seq: this.#seq++, child: parsed });
  }

  async forgetChildProcess(experimentId: string, pid: number): Promise<void> {
    this.#ensureOpen();
    this.#experiments.get(experimentId)?.children.delete(pid);
  }

  async listChildProcesses(): Promise<StoredChildProcess[]> {
    this.#ensureOpen();
    const all: { seq: number; child: StoredChildProcess }[] = [];
    for (const [experimentId, stored] of this.#experiments)
      for (const { seq, child } of stored.children.values())
        all.push({ seq, child: { ...structuredClone(child), experiment_id: experimentId } });
    return all.sort((a, b) => a.seq - b.seq).map((entry) => entry.child);
  }

  async addAnnotation(
    experimentId: string,
    annotation: AnnotationInput,
    times?: AnnotationTimes,
  ): Promise<Annotation> {
    this.#ensureOpen();
    const stored = this.#get(experimentId);
    const write = prepareAnnotation(experimentId, annotation, this.#redact, times);
    if (!stored.records.has(write.runId)) throw unknownRun(experimentId, write.runId);
    const row = { id: ++this.#annotationSeq, runId: write.runId, document: write.document };
    stored.annotations.push(row);
    return decodeAnnotation(row.id, experimentId, row.runId, row.document);
  }

  async listAnnotations(experimentId: string): Promise<Annotation[]> {
    this.#ensureOpen();
    const stored = this.#experiments.get(experimentId);
    return (stored?.annotations ?? []).map((row) =>
      decodeAnnotation(row.id, experimentId, row.runId, row.document),
    );
  }

  async updateAnnotation(experimentId: string, id: number, edit: AnnotationEdit): Promise<Annotation> {
    this.#ensureOpen();
    const row = this.#get(experimentId).annotations.find((a) => a.id === id);
    if (row === undefined) throw unknownAnnotation(experimentId, id);
    const existing = decodeAnnotation(row.id, experimentId, row.runId, row.document);
    row.document = prepareAnnotationEdit(existing, edit, this.#redact);
    return decodeAnnotation(row.id, experimentId, row.runId, row.document);
  }

  async deleteAnnotation(experimentId: string, id: number): Promise<boolean> {
    this.#ensureOpen();
    const rows = this.#experiments.get(experimentId)?.annotations;
    const at = rows?.findIndex((a) => a.id === id) ?? -1;
    if (rows === undefined || at < 0) return false;
    rows.splice(at, 1);
    return true;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  /** The rows the query's filters select, in suite-task order, then task id, epoch, insertion. */
  #selected(stored: StoredExperiment, query: RecordQuery): StoredRecord[] {
    const outcomes = queriedOutcomes(query);
    const rows = [...stored.records.values()].filter(
      (row) =>
        (query.task === undefined || row.taskId === query.task) &&
        (outcomes === undefined || outcomes.includes(row.outcome)) &&
        (query.finishedAfter === undefined ||
          row.finishedAt === null ||
          row.finishedAt > query.finishedAfter),
    );
    return rows.sort(
      (a, b) =>
        a.taskIndex - b.taskIndex ||
        (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0) ||
        a.epoch - b.epoch,
    );
  }

  #window(experimentId: string, query: RecordQuery): StoredRecord[] {
    this.#ensureOpen();
    const stored = this.#experiments.get(experimentId);
    if (stored === undefined) return [];
    const { offset, limit } = recordWindow(query);
    return this.#selected(stored, query).slice(offset, limit === undefined ? undefined : offset + limit);
  }

  #get(experimentId: string): StoredExperiment {
    const stored = this.#experiments.get(experimentId);
    if (stored === undefined) {
      throw new HarnessEvalError('not_found', `no experiment ${experimentId} in memory`, {
        data: { experimentId },
      });
    }
    return stored;
  }

  #row(stored: StoredExperiment, experimentId: string, record: RunRecord): StoredRecord {
    return {
      runId: record.run_id,
      taskId: record.task_id,
      epoch: record.epoch,
      outcome: record.outcome,
      taskIndex: taskIndexOf(stored.taskOrder, record.task_id),
      finishedAt: finishedAt(record),
      document: encodeDocument(record, this.#redact, `run ${record.run_id} of experiment ${experimentId}`),
    };
  }

  #ensureOpen(): void {
    if (this.#closed) throw new HarnessEvalError('store', 'the memory store is closed');
  }
}
