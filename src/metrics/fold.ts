import type { MetricResult } from '../core/experiment.ts';
import { isEnvironmentError, isInfraError } from '../core/overall-score.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { MetricTask } from './types.ts';

/**
 * What a metric's fold knows besides the records: the suite's tasks and epochs, and a cache the
 * folds of one input share (the latency percentiles draw one bootstrap between them).
 */
export interface FoldContext {
  readonly tasks: readonly MetricTask[];
  readonly epochs: number;
  readonly shared: Map<string, unknown>;
  /**
   * Records folded before this fold was made (a run makes an evaluator's fold when a record first
   * names that evaluator), none of which has a value for it: their counts, so the fold starts
   * where it would be had it seen them.
   */
  readonly prior?: PriorRecords;
}

/** What a fold made late needs of the records before it: how many, and how many were left out. */
export class PriorRecords {
  records = 0;
  readonly pending = new Tally();
  environmentErrors = 0;
  infraErrors = 0;

  add(record: RunRecord): void {
    this.records++;
    if (record.outcome === 'pending') this.pending.add(record.task_id);
    else if (isEnvironmentError(record)) this.environmentErrors++;
    else if (isInfraError(record)) this.infraErrors++;
  }

  /** A copy: the fold made now goes on from here while this one keeps counting. */
  snapshot(): PriorRecords {
    const copy = new PriorRecords();
    copy.records = this.records;
    for (const [task, n] of this.pending.counts) copy.pending.add(task, n);
    copy.environmentErrors = this.environmentErrors;
    copy.infraErrors = this.infraErrors;
    return copy;
  }
}

/**
 * A metric computed one record at a time: `add` folds a trial into a state that grows with the
 * tasks, not the trials (the latency percentiles keep each trial's latency, 8 bytes, to stay
 * exact), so a run of any length computes its metrics without keeping its records. The result is
 * the one `calculate` gives for the records in the order they were added.
 */
export interface MetricFold {
  add(record: RunRecord): void;
  result(options?: { readonly valueOnly?: boolean }): MetricResult;
}

/**
 * Per-task running sums of a metric's values, tasks in first-seen order. Each sum is the Kahan
 * sum `stats/descriptive.ts`'s `sum` computes over the task's values in arrival order, so that a
 * task's mean is bit for bit the mean of the list it replaces. Non-finite values are left out.
 */
export class TaskSums {
  private readonly index = new Map<string, number>();
  readonly tasks: string[] = [];
  private readonly totals: number[] = [];
  private readonly compensations: number[] = [];
  private readonly counts: number[] = [];
  /** Values added, over all tasks. */
  trials = 0;

  add(task: string, value: number): void {
    if (!Number.isFinite(value)) return;
    let i = this.index.get(task);
    if (i === undefined) {
      i = this.tasks.length;
      this.index.set(task, i);
      this.tasks.push(task);
      this.totals.push(0);
      this.compensations.push(0);
      this.counts.push(0);
    }
    this.trials++;
    this.counts[i]!++;
    const y = value - this.compensations[i]!;
    const t = this.totals[i]! + y;
    this.compensations[i] = t - this.totals[i]! - y;
    this.totals[i] = t;
  }

  has(task: string): boolean {
    return this.index.has(task);
  }

  /**
   * Task -> mean, first-seen order; `extra` values (`times(task)` of them, after the task's own)
   * give the mean the task would have with them (its pending trials graded at a bound).
   */
  means(extra?: { readonly value: number; readonly times: (task: string) => number }): Map<string, number> {
    const result = new Map<string, number>();
    for (let i = 0; i < this.tasks.length; i++) {
      const task = this.tasks[i]!;
      let total = this.totals[i]!;
      let compensation = this.compensations[i]!;
      let count = this.counts[i]!;
      const times = extra === undefined ? 0 : extra.times(task);
      for (let k = 0; k < times; k++) {
        const y = extra!.value - compensation;
        const t = total + y;
        compensation = t - total - y;
        total = t;
        count++;
      }
      if (count > 0) result.set(task, total / count);
    }
    return result;
  }

  /** Task -> total of its values, first-seen order. */
  sums(): Map<string, number> {
    return new Map(this.tasks.map((task, i) => [task, this.totals[i]!]));
  }
}

/** A count per key, keys in first-seen order. */
export class Tally {
  readonly counts = new Map<string, number>();
  total = 0;

  add(key: string, by = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + by);
    this.total += by;
  }

  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}

/** The records folded one by one: what `calculate` does with a list. */
export function foldAll(
  fold: MetricFold,
  records: readonly RunRecord[],
  valueOnly: boolean | undefined,
): MetricResult {
  for (const record of records) fold.add(record);
  return fold.result(valueOnly === undefined ? {} : { valueOnly });
}

/** The context of one metric input: its cache lives as long as the input object. */
const contexts = new WeakMap<object, FoldContext>();
export function contextOf(input: {
  readonly tasks: readonly MetricTask[];
  readonly epochs: number;
}): FoldContext {
  let context = contexts.get(input);
  if (context === undefined) {
    context = { tasks: input.tasks, epochs: input.epochs, shared: new Map() };
    contexts.set(input, context);
  }
  return context;
}
