import type { RunRecord } from '../core/run-record.ts';
import { groupBy } from '../stats/clustered.ts';
import { emptyResult, metricResult } from './aggregate.ts';
import { defineBuiltin } from './define.ts';
import { Tally } from './fold.ts';

/**
 * Flaky tasks: tasks whose verdict changes from one attempt to the next with nothing changed —
 * across the epochs of one run, and across stored runs of the same harness version. A flaky
 * task's "regression" between two versions may be luck; `compare --exclude-flaky` reruns the
 * comparison without them.
 *
 * Per task: `trials` finished attempts (pending ones have no verdict yet), `passes` of them
 * passed, and the flip rate is the share of pairs of attempts that disagree,
 * passes · (trials - passes) / C(trials, 2) — the chance that two attempts drawn at random give
 * different verdicts (0 for a stable task, at most about ½). A task is flaky when it has both a
 * pass and a non-pass.
 */
export interface FlakyTask {
  readonly task_id: string;
  readonly trials: number;
  readonly passes: number;
  readonly flip_rate: number;
  /** How many runs (experiments) the attempts came from. */
  readonly runs: number;
}

/** A run's attempts: an experiment's id and records (only `task_id` and `outcome` are read). */
export interface FlakinessRun {
  readonly id: string;
  readonly records: readonly Pick<RunRecord, 'task_id' | 'outcome'>[];
}

/**
 * Tasks with both a pass and a non-pass among the finished attempts of `runs` (one run: its
 * epochs; several runs of one harness version: all their attempts pooled), in first-seen order.
 */
export function flakyTasks(runs: readonly FlakinessRun[]): FlakyTask[] {
  const finished = runs.flatMap((run) =>
    run.records.filter((r) => r.outcome !== 'pending').map((r) => ({ run: run.id, record: r })),
  );
  const flaky: FlakyTask[] = [];
  for (const [task, group] of groupBy(finished, (x) => x.record.task_id)) {
    const passes = group.filter((x) => x.record.outcome === 'pass').length;
    const one = flakyTask(task, group.length, passes);
    if (one !== undefined) flaky.push({ ...one, runs: new Set(group.map((x) => x.run)).size });
  }
  return flaky;
}

/** A task's attempts and passes as a flaky task, or undefined when its verdict never changed. */
export function flakyTask(task: string, trials: number, passes: number): Omit<FlakyTask, 'runs'> | undefined {
  if (trials < 2 || passes === 0 || passes === trials) return undefined;
  return {
    task_id: task,
    trials,
    passes,
    flip_rate: (passes * (trials - passes)) / ((trials * (trials - 1)) / 2),
  };
}

/**
 * The number of flaky tasks among those with at least two finished attempts (n), with each one's
 * attempts, passes and flip rate in `details.tasks`. n/a with one attempt per task: a single
 * attempt cannot show flakiness. It counts tasks, so it has no interval and no paired test.
 */
export const flakyTasksMetric = defineBuiltin('flaky_tasks', {
  unit: 'count',
  fold(_context, shape) {
    const tried = new Tally();
    const passed = new Tally();
    return {
      add(record) {
        if (record.outcome === 'pending') return;
        tried.add(record.task_id);
        if (record.outcome === 'pass') passed.add(record.task_id);
      },
      result() {
        let repeated = 0;
        const tasks: Omit<FlakyTask, 'runs'>[] = [];
        for (const [task, trials] of tried.counts) {
          if (trials >= 2) repeated++;
          const flaky = flakyTask(task, trials, passed.get(task));
          if (flaky !== undefined) tasks.push(flaky);
        }
        const details = { tasks, rule: 'a task with both a pass and a non-pass among its finished attempts' };
        if (repeated === 0) return emptyResult(shape, { ...details, reason: 'one attempt per task' });
        return metricResult(shape, { value: tasks.length, stderr: null, n: repeated }, details, { ci: null });
      },
    };
  },
});
