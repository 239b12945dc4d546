import { HarnessEvalError } from '../core/errors.ts';
import type { RunRecord } from '../core/run-record.ts';

const ABSENT = 0;
const EXPECTED = 1;
const ARRIVED = 2;

/**
 * Hands a run's records on in plan order — by task in file order, then by epoch — whatever order
 * they finish in, which is the order `finishExperiment` sorts them into: a metric's sums then add
 * the same numbers in the same order, and give the same result to the last bit. A record that
 * finishes early waits until the ones planned before it have come (or will not come); with
 * trials taken in plan order that is about the concurrency's worth of records, plus what finishes
 * while one slow trial runs. One byte per planned trial marks what is expected.
 */
export class InOrder {
  private readonly slots: Uint8Array;
  private readonly waiting = new Map<number, RunRecord>();
  private readonly taskIndex: Map<string, number>;
  private next = 0;

  constructor(
    taskIds: readonly string[],
    private readonly epochs: number,
    private readonly sink: (record: RunRecord) => void,
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

  /** A finished trial: it goes on now, or once the trials planned before it are settled. */
  put(record: RunRecord): void {
    const slot = this.slotOf(record.task_id, record.epoch);
    if (slot === undefined || this.slots[slot] !== EXPECTED)
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
      if (this.slots[slot] === EXPECTED) this.slots[slot] = ABSENT;
    this.release();
  }

  private release(): void {
    while (this.next < this.slots.length) {
      const state = this.slots[this.next];
      if (state === EXPECTED) return;
      if (state === ARRIVED) {
        const record = this.waiting.get(this.next)!;
        this.waiting.delete(this.next);
        this.sink(record);
      }
      this.next++;
    }
  }
}
