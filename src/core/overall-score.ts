import type { ErrorKind } from './agent-output.ts';
import type { Experiment } from './experiment.ts';
import type { RunRecord } from './run-record.ts';

/**
 * The one definition of an experiment's overall score, used by every output (console, HTML,
 * JSON, `grade`, `runs show`, the `overall_score` metric):
 *
 *   the task-weighted mean, over tasks with at least one decided trial, of the mean over those
 *   trials of each trial's overall score (the suite's weights over its automated and rubric parts;
 *   0 for a trial the harness errored on).
 *
 * A trial is decided once it has an outcome (pass, fail, or a harness error). Pending trials
 * (waiting for a judge or a human) and environment errors (a check could not run) are left out and
 * counted, never scored as 0 or as 1. Infrastructure errors (`infra`: the container, the sandbox or
 * the tool that ran an imported trial failed) are left out and counted the same way. While trials are pending the score covers the decided ones
 * only; `possible_range` is where it can end up once they are graded.
 */
export interface OverallScore {
  readonly value: number | null;
  /** Trials behind the value. */
  readonly decided: number;
  readonly pending: number;
  readonly environment_errors: number;
  readonly infra_errors: number;
  /** Tasks with at least one decided trial. */
  readonly tasks: number;
  /** The value once every pending trial is graded, at worst (all 0) and at best (all 1). */
  readonly possible_range: readonly [number, number] | null;
  /** Task id -> mean overall score of its decided trials. */
  readonly per_task: ReadonlyMap<string, number>;
}

/**
 * What the overall score reads of a trial: a whole record, or a store's summary of one (whose
 * `error_kind` already is the record's, else the adapter's, and which carries no output).
 */
export type ScoredTrial = Pick<RunRecord, 'task_id' | 'outcome' | 'scores' | 'error_kind'> & {
  readonly output?: Pick<RunRecord['output'], 'error_kind'>;
};

/** An experiment as the overall score reads it: its suite and the trials it scores. */
export type ScoredExperiment = Omit<Experiment, 'records'> & { readonly records: readonly ScoredTrial[] };

/** The record's error kind: its own (environment), else the adapter's (records stored before). */
export function recordErrorKind(record: ScoredTrial): ErrorKind | undefined {
  return record.error_kind ?? record.output?.error_kind;
}

/** An errored trial whose checks could not run where they ran: it says nothing about the harness. */
export function isEnvironmentError(record: ScoredTrial): boolean {
  return record.outcome === 'error' && recordErrorKind(record) === 'environment';
}

/** An errored trial whose infrastructure failed (a container, a sandbox): it says nothing about the harness. */
export function isInfraError(record: ScoredTrial): boolean {
  return record.outcome === 'error' && recordErrorKind(record) === 'infra';
}

/** An environment or infrastructure error: left out of rates and scores, and counted apart. */
export function isExcludedError(record: ScoredTrial): boolean {
  return isEnvironmentError(record) || isInfraError(record);
}

/** The trial has an outcome that measures the harness: passed, failed or errored by the harness. */
export function isDecided(record: ScoredTrial): boolean {
  return record.outcome !== 'pending' && !isExcludedError(record);
}

function trialOverall(record: ScoredTrial): number {
  if (record.outcome === 'error') return 0;
  return record.scores['overall'] ?? (record.outcome === 'pass' ? 1 : 0);
}

/** Per task, its trials' values added up in arrival order (tasks in first-seen order). */
class PlainSums {
  readonly sums = new Map<string, { total: number; count: number }>();

  add(task: string, value: number): void {
    const entry = this.sums.get(task);
    if (entry === undefined) this.sums.set(task, { total: 0 + value, count: 1 });
    else {
      entry.total += value;
      entry.count++;
    }
  }
}

function weightedMean(
  byTask: PlainSums,
  weights: ReadonlyMap<string, number>,
): { value: number | null; tasks: number; perTask: Map<string, number> } {
  let weighted = 0;
  let total = 0;
  const perTask = new Map<string, number>();
  for (const [task, { total: sum, count }] of byTask.sums) {
    if (count === 0) continue;
    const mean = sum / count;
    perTask.set(task, mean);
    const weight = weights.get(task) ?? 1;
    weighted += weight * mean;
    total += weight;
  }
  return { value: total > 0 ? weighted / total : null, tasks: perTask.size, perTask };
}

export function overallScore(
  records: readonly ScoredTrial[],
  tasks: readonly { readonly id: string; readonly weight: number }[],
): OverallScore {
  const tally = new OverallScoreTally(tasks);
  for (const record of records) tally.add(record);
  return tally.result();
}

/**
 * `overallScore` one trial at a time: what it keeps grows with the tasks, not the trials, so a
 * run can score itself without keeping its records. The result is `overallScore` of the trials
 * in the order they were added.
 */
export class OverallScoreTally {
  private readonly weights: Map<string, number>;
  private readonly known: Set<string>;
  private readonly decided = new PlainSums();
  private readonly atWorst = new PlainSums();
  private readonly atBest = new PlainSums();
  private pending = 0;
  private environment = 0;
  private infra = 0;
  private count = 0;

  constructor(tasks: readonly { readonly id: string; readonly weight: number }[]) {
    this.weights = new Map(tasks.map((t) => [t.id, t.weight]));
    this.known = new Set(tasks.map((t) => t.id));
  }

  add(record: ScoredTrial): void {
    if (this.known.size > 0 && !this.known.has(record.task_id)) return;
    if (isEnvironmentError(record)) {
      this.environment++;
      return;
    }
    if (isInfraError(record)) {
      this.infra++;
      return;
    }
    if (record.outcome === 'pending') {
      this.pending++;
      this.atWorst.add(record.task_id, 0);
      this.atBest.add(record.task_id, 1);
      return;
    }
    this.count++;
    const value = trialOverall(record);
    this.decided.add(record.task_id, value);
    this.atWorst.add(record.task_id, value);
    this.atBest.add(record.task_id, value);
  }

  result(): OverallScore {
    const mean = weightedMean(this.decided, this.weights);
    const worst = weightedMean(this.atWorst, this.weights).value;
    const best = weightedMean(this.atBest, this.weights).value;
    return {
      value: mean.value,
      decided: this.count,
      pending: this.pending,
      environment_errors: this.environment,
      infra_errors: this.infra,
      tasks: mean.tasks,
      possible_range: this.pending > 0 && worst !== null && best !== null ? [worst, best] : null,
      per_task: mean.perTask,
    };
  }
}
