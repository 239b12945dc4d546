import type { RunRecord } from '../core/run-record.ts';
import { streamRecords } from '../store/page-stream.ts';
import type { ExperimentStore } from '../store/types.ts';
import { isRetryableError } from './resume-plan.ts';

const ABSENT = 0;
/** A finished trial: it does not run again, and its record counts. */
const KEPT = 1;
/** A stored trial that `--retry-errors` runs again. */
const RETRY = 2;
/** A kept trial whose record the run has folded into its metrics. */
const FOLDED = 3;

/** How a run continues its stored trials: `resume` runs the missing ones, `retry` the errored ones. */
export type ContinueMode = 'resume' | 'retry';

/** What a stored record is to the run that continues its experiment. */
export type Standing = 'kept' | 'retry' | 'ignored';

/**
 * A stored record's standing: a trial cut short by an interruption (older versions stored some
 * as `aborted` errors) is no result of the harness and runs again on resume; `--retry-errors`
 * runs again the errors outside the harness's fault and keeps everything else.
 */
export function standingOf(record: RunRecord, mode: ContinueMode): Standing {
  if (record.output.error_kind === 'aborted') return 'ignored';
  return mode === 'retry' && isRetryableError(record) ? 'retry' : 'kept';
}

/**
 * The trials an experiment has stored, as a run that continues it sees them, read from the store
 * a page of trial records at a time: one byte per planned trial says which are finished and which
 * run again, so a resume of 100,000 trials holds neither their records nor their keys.
 */
export class StoredTrials {
  /** Kept records (those outside the plan too), by outcome: the run's progress starts there. */
  readonly counts = { kept: 0, passed: 0, failed: 0, errored: 0, pending: 0 };
  /**
   * Kept records the plan has no slot for (a task or epoch outside it) or a second kept record
   * of one trial: the run cannot fold them in plan order and keeps its records instead.
   */
  irregular = 0;
  /**
   * Whether a kept record has criteria: the default choice of metrics then reports the process
   * metrics whatever the traces hold, so trial records (which leave traces out) serve it too.
   */
  criteria = false;
  private readonly slots: Uint8Array;
  private readonly taskIndex: ReadonlyMap<string, number>;

  private constructor(
    readonly taskIds: readonly string[],
    readonly epochs: number,
    readonly mode: ContinueMode,
  ) {
    this.slots = new Uint8Array(taskIds.length * epochs);
    this.taskIndex = new Map(taskIds.map((id, i) => [id, i]));
  }

  /** Nothing stored: a new experiment. */
  static none(taskIds: readonly string[], epochs: number): StoredTrials {
    return new StoredTrials(taskIds, epochs, 'resume');
  }

  /** The stored trials of `experimentId` against the plan of `taskIds` x `epochs`. */
  static async read(
    store: ExperimentStore,
    experimentId: string,
    plan: { readonly taskIds: readonly string[]; readonly epochs: number; readonly mode: ContinueMode },
  ): Promise<StoredTrials> {
    const stored = new StoredTrials(plan.taskIds, plan.epochs, plan.mode);
    await store.readRecordPages(experimentId, (page) => {
      for (const record of page) stored.add(record);
    });
    return stored;
  }

  private add(record: RunRecord): void {
    const standing = standingOf(record, this.mode);
    if (standing === 'ignored') return;
    const slot = this.slotOf(record.task_id, record.epoch);
    if (standing === 'retry') {
      if (slot !== undefined && this.slots[slot] === ABSENT) this.slots[slot] = RETRY;
      return;
    }
    this.counts.kept++;
    if (record.criteria.length > 0) this.criteria = true;
    if (record.outcome === 'pass') this.counts.passed++;
    else if (record.outcome === 'fail') this.counts.failed++;
    else if (record.outcome === 'error') this.counts.errored++;
    else this.counts.pending++;
    if (slot === undefined || this.slots[slot] === KEPT) this.irregular++;
    // A kept record of a trial outweighs a retryable one of the same trial: it does not run again.
    else this.slots[slot] = KEPT;
  }

  private slotOf(taskId: string, epoch: number): number | undefined {
    const task = this.taskIndex.get(taskId);
    if (task === undefined || !Number.isInteger(epoch) || epoch < 0 || epoch >= this.epochs) return undefined;
    return task * this.epochs + epoch;
  }

  /** Whether the plan's trial at (task index, epoch) runs in this run. */
  runs(taskIndex: number, epoch: number): boolean {
    const state = this.slots[taskIndex * this.epochs + epoch];
    return this.mode === 'retry' ? state === RETRY : state === ABSENT;
  }

  /** The plan's trials that have a kept record, in plan order. */
  *keptTrials(): Generator<{ readonly taskId: string; readonly epoch: number }> {
    for (let slot = 0; slot < this.slots.length; slot++) {
      if (this.slots[slot] !== KEPT && this.slots[slot] !== FOLDED) continue;
      yield { taskId: this.taskIds[Math.floor(slot / this.epochs)]!, epoch: slot % this.epochs };
    }
  }

  /**
   * The first record of each kept trial of the plan (the ones `keptTrials` lists), once each, read
   * from the store a page at a time as the caller takes them: whole records with `whole`, else
   * trial records. Records stored after the read began (this run's) are not among them.
   */
  async *keptRecords(
    store: ExperimentStore,
    experimentId: string,
    options: { readonly whole: boolean },
  ): AsyncGenerator<RunRecord> {
    if (this.counts.kept === 0) return;
    for await (const record of streamRecords(store, experimentId, { whole: options.whole })) {
      if (standingOf(record, this.mode) !== 'kept') continue;
      const slot = this.slotOf(record.task_id, record.epoch);
      if (slot === undefined || this.slots[slot] !== KEPT) continue;
      this.slots[slot] = FOLDED;
      yield record;
    }
  }

  /**
   * Reads the kept records again, a page at a time, in the store's order (getExperiment's), and
   * hands each to `visit` — whole records with `whole`, else trial records. With `once`, only
   * the first record of each kept trial of the plan (the ones `keptTrials` lists), each once.
   */
  async readKept(
    store: ExperimentStore,
    experimentId: string,
    options: { readonly whole: boolean; readonly once: boolean },
    visit: (record: RunRecord) => void,
  ): Promise<void> {
    if (this.counts.kept === 0) return;
    await store.readRecordPages(
      experimentId,
      (page) => {
        for (const record of page) {
          if (standingOf(record, this.mode) !== 'kept') continue;
          if (options.once) {
            const slot = this.slotOf(record.task_id, record.epoch);
            if (slot === undefined || this.slots[slot] !== KEPT) continue;
            this.slots[slot] = FOLDED;
          }
          visit(record);
        }
      },
      { whole: options.whole },
    );
  }
}
