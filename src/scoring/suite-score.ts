import type { RunRecord } from '../core/run-record.ts';
import type { Scoring } from '../core/suite.ts';

export interface SuiteScore {
  /** Weighted average over tasks (by task weight) of each task's mean overall score over epochs. */
  readonly overall: number | null;
  readonly outcome: 'pass' | 'fail' | 'pending';
  readonly tasks_scored: number;
}

/** The suite score and outcome from its run records (seed 004: weighted_average + pass_threshold). */
export function scoreSuite(
  records: readonly RunRecord[],
  tasks: readonly { id: string; weight: number }[],
  scoring: Scoring,
): SuiteScore {
  let weighted = 0;
  let weights = 0;
  let scored = 0;
  let pending = false;
  // Grouped once: filtering all records per task was quadratic (10,000 trials took seconds).
  const byTask = new Map<string, RunRecord[]>();
  for (const r of records) {
    const group = byTask.get(r.task_id);
    if (group === undefined) byTask.set(r.task_id, [r]);
    else group.push(r);
  }
  for (const task of tasks) {
    const mine = byTask.get(task.id) ?? [];
    if (mine.some((r) => r.outcome === 'pending')) pending = true;
    const overall = mine.map((r) => r.scores['overall']).filter((s): s is number => s !== undefined);
    if (overall.length === 0) continue;
    const mean = overall.reduce((a, b) => a + b, 0) / overall.length;
    weighted += task.weight * mean;
    weights += task.weight;
    scored++;
  }
  if (weights === 0) return { overall: null, outcome: pending ? 'pending' : 'fail', tasks_scored: scored };
  const overall = weighted / weights;
  // While a grade is outstanding the overall score is partial, so the verdict waits too.
  const outcome = pending ? 'pending' : overall >= scoring.pass_threshold ? 'pass' : 'fail';
  return { overall, outcome, tasks_scored: scored };
}
