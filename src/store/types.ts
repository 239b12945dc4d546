import type { ErrorKind } from '../core/agent-output.ts';
import type { Annotation, AnnotationEdit, AnnotationInput, AnnotationTimes } from '../core/annotation.ts';
import type { Experiment, ExperimentStatus, MetricResult, ThresholdViolation } from '../core/experiment.ts';
import type { Outcome, RunRecord } from '../core/run-record.ts';
import type { ExperimentDocument } from './documents.ts';
import type { ChildProcessRecord, LeaseHolder, StoredChildProcess } from './run-bookkeeping.ts';

export interface ExperimentSummary {
  readonly id: string;
  readonly name?: string | undefined;
  readonly suite_id: string;
  readonly harness_name: string;
  readonly harness_version: string;
  readonly status: ExperimentStatus;
  readonly created_at: string;
  readonly finished_at?: string | undefined;
  readonly records: number;
  readonly outcome?: string | undefined;
}

export interface ExperimentFilter {
  readonly harness?: string;
  readonly suite?: string;
  readonly status?: ExperimentStatus;
  /** Only experiments whose id starts with this text (the CLI accepts unique id prefixes). */
  readonly idPrefix?: string;
  readonly limit?: number;
}

/**
 * The columns of one trial that the viewer's task table, charts, progress and overall score read,
 * without its output, trace or evaluations. Each field is the record's own value.
 */
export interface RecordSummary {
  readonly run_id: string;
  readonly task_id: string;
  readonly epoch: number;
  readonly outcome: Outcome;
  readonly scores: Readonly<Record<string, number>>;
  /** When the trial started (the record's `timestamp`). */
  readonly timestamp: string;
  /** When it ended (`finishedAt`: start + duration); null when the start is not a readable time. */
  readonly finished_at: string | null;
  readonly duration_seconds: number;
  readonly cost_usd: number | null;
  /** The record's error kind, else its adapter output's (as `recordErrorKind` reads it). */
  readonly error_kind?: ErrorKind;
  /** Rubric or human criteria still waiting for a grade. */
  readonly pending_criteria: number;
}

/** Which of an experiment's records to read: filters, then a window of the ordered result. */
export interface RecordQuery {
  readonly task?: string;
  /** Records of this outcome, or of any of these (a report's failed and errored rows). */
  readonly outcome?: Outcome | readonly Outcome[];
  /**
   * Only records that finished after this ISO time (`RecordSummary.finished_at`), and those whose
   * finish time is not known (stored before it was kept, or an unreadable start): what is new
   * since a reader last looked, never missing one.
   */
  readonly finishedAfter?: string;
  /** Records skipped from the start (default 0). */
  readonly offset?: number;
  /** At most this many (default: all). */
  readonly limit?: number;
}

/** How `readRecordPages` reads. */
export interface RecordPagesOptions {
  /** Whole records, as `listRecords` gives them (default: trial records, as `listTrialRecords`). */
  readonly whole?: boolean;
  /** Records per page (default 1,000). */
  readonly pageSize?: number;
  /** Only records of these outcomes (a report's failed and errored rows); default all. */
  readonly outcomes?: readonly Outcome[];
}

/** Absent and `undefined` fields alike are left as they are. */
export interface ExperimentPatch {
  readonly status?: ExperimentStatus | undefined;
  readonly finished_at?: string | undefined;
  readonly metrics?: readonly MetricResult[] | undefined;
  readonly scores?: Readonly<Record<string, number>> | undefined;
  readonly outcome?: Experiment['outcome'] | undefined;
  readonly violations?: readonly ThresholdViolation[] | undefined;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Where experiments live. Every method is async so that a networked backend (PostgreSQL) fits
 * the same contract. `appendRecord` is durable when it resolves: a crash after it loses nothing.
 */
export interface ExperimentStore {
  /**
   * Stores a new experiment (its `records` are stored too). Fails with `store` if the id exists,
   * `invalid_input` if it does not match the schema or two records share a run_id.
   */
  createExperiment(experiment: Experiment): Promise<void>;
  /** Adds or replaces (same run_id) one trial's record, in its own transaction. `not_found` for an unknown experiment. */
  appendRecord(experimentId: string, record: RunRecord): Promise<void>;
  /** Replaces the fields present in `patch`; `not_found` for an unknown experiment. */
  updateExperiment(experimentId: string, patch: ExperimentPatch): Promise<void>;
  /**
   * The whole experiment with its records in suite-task order then epoch (records of tasks not in
   * the suite last, by task id); undefined if absent. A damaged stored document fails with `store`.
   */
  getExperiment(experimentId: string): Promise<Experiment | undefined>;
  /** The experiment without its records (a page that shows a few of them); undefined if absent. */
  getExperimentDocument(experimentId: string): Promise<ExperimentDocument | undefined>;
  /**
   * The records `query` selects, in `getExperiment`'s order, each equal to the full read's;
   * empty for an unknown experiment.
   */
  listRecords(experimentId: string, query?: RecordQuery): Promise<RunRecord[]>;
  /** The summaries of the records `listRecords` would return, in the same order. */
  listRecordSummaries(experimentId: string, query?: RecordQuery): Promise<RecordSummary[]>;
  /**
   * The trial records (trial-record.ts: cut to what metrics and comparisons read) of the records
   * `listRecords` would return, in the same order; what `compare` reads. Empty for an unknown
   * experiment.
   */
  listTrialRecords(experimentId: string, query?: RecordQuery): Promise<RunRecord[]>;
  /**
   * Every record of the experiment — trial records as `listTrialRecords` gives them, or with
   * `whole` the records as `listRecords` does — in the same order, handed to `visit` one page at
   * a time, each awaited before the next page is read: a reader of 100,000 trials holds a page,
   * not the experiment (an offset per page would re-walk the rows before it). Nothing is visited
   * for an unknown experiment.
   */
  readRecordPages(
    experimentId: string,
    visit: (page: RunRecord[]) => void | Promise<void>,
    options?: RecordPagesOptions,
  ): Promise<void>;
  /** How many records the query's filters select (its offset and limit are ignored). */
  countRecords(experimentId: string, query?: RecordQuery): Promise<number>;
  /** Newest first. */
  listExperiments(filter?: ExperimentFilter): Promise<ExperimentSummary[]>;
  deleteExperiment(experimentId: string): Promise<boolean>;
  /**
   * Gives `holder` the experiment's lease when no process holds it, or when the holder is exactly
   * `replacing` (one the caller found dead). Returns the holder afterwards: `holder` itself when
   * it got the lease, else the process that has it. `not_found` for an unknown experiment.
   * Atomic: of two processes asking at once, one gets it.
   */
  acquireLease(experimentId: string, holder: LeaseHolder, replacing?: LeaseHolder): Promise<LeaseHolder>;
  /** Gives the lease up if `holder` (same pid, host, start) has it; otherwise changes nothing. */
  releaseLease(experimentId: string, holder: LeaseHolder): Promise<void>;
  /** Records a process group a run of the experiment started (one with the same pid is replaced). */
  recordChildProcess(experimentId: string, child: ChildProcessRecord): Promise<void>;
  /** Forgets a recorded child (it ended, or was ended); unknown ones are ignored. */
  forgetChildProcess(experimentId: string, pid: number): Promise<void>;
  /** Every recorded child of every experiment, oldest first. */
  listChildProcesses(): Promise<StoredChildProcess[]>;
  /**
   * Stores a person's label and/or note on one trial (secrets scrubbed) and returns it with its id,
   * unique in the store and increasing in the order written. `not_found` for an unknown
   * experiment or run_id; `invalid_input` for an empty or oversized annotation. `times` restores an
   * exported annotation's created_at and updated_at (default: written now, never edited).
   */
  addAnnotation(
    experimentId: string,
    annotation: AnnotationInput,
    times?: AnnotationTimes,
  ): Promise<Annotation>;
  /** The experiment's annotations, oldest first (none for an unknown experiment). */
  listAnnotations(experimentId: string): Promise<Annotation[]>;
  /**
   * Replaces the label, note and author of one annotation (checked and scrubbed as when added; its
   * trial, id and created_at stay, `updated_at` is set) and returns it. `not_found` for an unknown
   * experiment or annotation id; `invalid_input` for an empty or oversized result.
   */
  updateAnnotation(experimentId: string, id: number, edit: AnnotationEdit): Promise<Annotation>;
  /** Deletes one annotation; whether it existed. */
  deleteAnnotation(experimentId: string, id: number): Promise<boolean>;
  close(): Promise<void>;
}
