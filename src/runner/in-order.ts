import { HarnessEvalError } from '../core/errors.ts';
import type { RunRecord } from '../core/run-record.ts';

const ABSENT = 0;
const EXPECTED = 1;
const ARRIVED = 2;
/** A kept trial of a resumed run: its stored record is read (`StoredFeed`) when the fold reaches it. */
const STORED = 3;

/** What `InOrder` orders: a record, or what a reader keeps of one. */
export interface TrialKey {
  readonly task_id: string;
  readonly epoch: number;
}

/**
 * Hands a run's records on in plan order — by task in file order, then by epoch — whatever order
 * they finish in, which is the order `finishExperiment` sorts them into: a metric's sums then add
 * the same numbers in the same order, and give the same result to the last bit. A record that
 * finishes early waits until the ones planned before it have come (or will not come); with
 * trials taken in plan order that is about the concurrency's worth of records, plus what finishes
 * while one slow trial runs. One byte per planned trial marks what is expected.
 *
 * The kept trials of a resume or a retry are `expectStored`: their records come from the store as
 * the fold reaches them (`StoredFeed`), not all at the start. Read at the start, every kept record
 * planned after the first trial to run waited here: with retried errors scattered over 10,000
 * trials, nearly the whole experiment.
 */
export class InOrder<T extends TrialKey = RunRecord> {
  private readonly slots: Uint8Array;
  private readonly waiting = new Map<number, T>();
  private readonly taskIndex: Map<string, number>;
  private next = 0;

  constructor(
    taskIds: readonly string[],
    private readonly epochs: number,
    private readonly sink: (record: T) => void,
  ) {
    this.slots = new Uint8Array(taskIds.length * epochs);
    this.taskIndex = new Map(taskIds.map((id, i) => [id, i]));
  }

  /** The slot of a trial, or undefined when it is not in the plan (a task or epoch outside it). */
  private slotOf(taskId: string, epoch: number): number | undefined {
    const task = this.taskIndex.get(taskId);
    if (task === undefined || !Number.isInteger(epoch) || epoch < 0 || epoch >= this.epochs) return undefined;
    return task * this.epochs + epoch;
  }

  /**
   * A trial that will be `put` (or skipped) later; false when it is outside the plan or expected
   * already. Every trial is expected before the first `put`.
   */
  expect(taskId: string, epoch: number): boolean {
    const slot = this.slotOf(taskId, epoch);
    if (slot === undefined || this.slots[slot] !== ABSENT) return false;
    this.slots[slot] = EXPECTED;
    return true;
  }

  /** A kept trial whose stored record will be `put` when `wantsStored` asks for it; as `expect`. */
  expectStored(taskId: string, epoch: number): boolean {
    const slot = this.slotOf(taskId, epoch);
    if (slot === undefined || this.slots[slot] !== ABSENT) return false;
    this.slots[slot] = STORED;
    return true;
  }

  /** Whether the fold waits for a kept trial's stored record (the next one the store gives). */
  get wantsStored(): boolean {
    return this.slots[this.next] === STORED;
  }

  /** The store has given every kept record it has: the kept trials still waiting will not come. */
  storedEnded(): void {
    for (let slot = this.next; slot < this.slots.length; slot++)
      if (this.slots[slot] === STORED) this.slots[slot] = ABSENT;
    this.release();
  }

  /** A finished trial: it goes on now, or once the trials planned before it are settled. */
  put(record: T): void {
    const slot = this.slotOf(record.task_id, record.epoch);
    if (slot === undefined || (this.slots[slot] !== EXPECTED && this.slots[slot] !== STORED))
      throw new HarnessEvalError('internal', `trial ${record.task_id}#${record.epoch} was not expected`);
    this.slots[slot] = ARRIVED;
    this.waiting.set(slot, record);
    this.release();
  }

  /** An expected trial that will not finish in this run (it stopped before it had a result). */
  skip(taskId: string, epoch: number): void {
    const slot = this.slotOf(taskId, epoch);
    if (slot !== undefined && this.slots[slot] === EXPECTED) this.slots[slot] = ABSENT;
    this.release();
  }

  /** The run is over: whatever is still expected will not come, and everything waiting goes on. */
  finish(): void {
    for (let slot = this.next; slot < this.slots.length; slot++)
      if (this.slots[slot] === EXPECTED || this.slots[slot] === STORED) this.slots[slot] = ABSENT;
    this.release();
  }

  private release(): void {
    while (this.next < this.slots.length) {
      const state = this.slots[this.next];
      if (state === EXPECTED || state === STORED) return;
      if (state === ARRIVED) {
        const record = this.waiting.get(this.next)!;
        this.waiting.delete(this.next);
        this.sink(record);
      }
      this.next++;
    }
  }
}

/**
 * Gives an `InOrder` the kept records of a resumed run from the store (`records`: in plan order,
 * as the store reads them) whenever the fold waits for one, so that at most about a page of them
 * is in memory. `pump` after each `put` or `skip`; `drain` when the run's trials are over.
 */
export class StoredFeed {
  #reading: Promise<void> | undefined;
  #failure: { readonly error: unknown } | undefined;

  constructor(
    private readonly order: InOrder,
    private readonly records: AsyncGenerator<RunRecord>,
  ) {}

  pump(): void {
    if (this.#reading !== undefined || this.#failure !== undefined || !this.order.wantsStored) return;
    this.#reading = this.#read(() => this.order.wantsStored)
      .catch((error: unknown) => {
        this.#failure = { error };
      })
      .finally(() => {
        this.#reading = undefined;
      });
  }

  /** Reads every kept record still unread into the order, and ends the store's read; rethrows its failure. */
  async drain(): Promise<void> {
    while (this.#reading !== undefined) await this.#reading;
    try {
      if (this.#failure !== undefined) throw this.#failure.error;
      await this.#read(() => true);
    } finally {
      await this.records.return(undefined);
    }
  }

  /** Ends the store's read without folding the rest (the run failed). */
  async close(): Promise<void> {
    while (this.#reading !== undefined) await this.#reading;
    await this.records.return(undefined);
  }

  async #read(wanted: () => boolean): Promise<void> {
    while (wanted()) {
      const next = await this.records.next();
      if (next.done === true) return this.order.storedEnded();
      this.order.put(next.value);
    }
  }
}
