import type { ExperimentStore, RecordSummary } from '../store/types.ts';

/**
 * How far back each read looks before the latest finish it has seen. A trial's record is written
 * a moment after it ends, so one that ended just before another can be stored just after it.
 */
export const LATE_WRITE_MS = 60_000;

/**
 * The summaries of a running experiment's trials, kept between polls: each read asks the store
 * only for trials that finished since the latest one seen (less LATE_WRITE_MS), and replaces a
 * trial read again (a retried or resumed one). The count taken before that read says whether one
 * was missed anyway (written later still): then, as on the first read, all of them are read.
 */
export class LiveRecords {
  readonly #store: ExperimentStore;
  readonly #experimentId: string;
  /** By `task#epoch`, the store's own key: a retry has a new run id and replaces its trial. */
  #byTrial = new Map<string, RecordSummary>();
  #latest: string | undefined;
  /** Reads so far that had to read every summary (the first one, and any that found one missed). */
  wholeReads = 0;

  constructor(store: ExperimentStore, experimentId: string) {
    this.#store = store;
    this.#experimentId = experimentId;
  }

  /** Every stored trial's summary as of now; `whole` reads them all (the final read of a run). */
  async read(options: { readonly whole?: boolean } = {}): Promise<readonly RecordSummary[]> {
    const stored = await this.#store.countRecords(this.#experimentId);
    if (options.whole !== true && this.#latest !== undefined) {
      const since = new Date(Date.parse(this.#latest) - LATE_WRITE_MS).toISOString();
      this.#keep(await this.#store.listRecordSummaries(this.#experimentId, { finishedAfter: since }));
      if (this.#byTrial.size >= stored) return [...this.#byTrial.values()];
    }
    this.wholeReads += 1;
    this.#byTrial = new Map();
    this.#latest = undefined;
    this.#keep(await this.#store.listRecordSummaries(this.#experimentId));
    return [...this.#byTrial.values()];
  }

  #keep(summaries: readonly RecordSummary[]): void {
    for (const summary of summaries) {
      this.#byTrial.set(`${summary.task_id}#${summary.epoch}`, summary);
      const end = summary.finished_at;
      if (end !== null && (this.#latest === undefined || end > this.#latest)) this.#latest = end;
    }
  }
}
