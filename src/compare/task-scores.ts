import type { Experiment } from '../core/experiment.ts';
import { overallScore } from '../core/overall-score.ts';

/** One task both experiments decided: its mean overall score in each (over decided epochs). */
export interface TaskScorePair {
  readonly task_id: string;
  readonly baseline: number;
  readonly candidate: number;
}

function perTask(experiment: Experiment): ReadonlyMap<string, number> {
  const tasks =
    experiment.suite.tasks.length > 0
      ? experiment.suite.tasks
      : [...new Set(experiment.records.map((r) => r.task_id))].map((id) => ({ id, weight: 1 }));
  return overallScore(experiment.records, tasks).per_task;
}

/**
 * The per-task scores of a candidate against the baseline, over the tasks both decided (the
 * paired tasks), in task id order. Tasks only one side ran, or still pending on a side, are out.
 */
export function taskScorePairs(baseline: Experiment, candidate: Experiment): TaskScorePair[] {
  const a = perTask(baseline);
  const b = perTask(candidate);
  const pairs: TaskScorePair[] = [];
  for (const [task_id, score] of a) {
    const other = b.get(task_id);
    if (other !== undefined) pairs.push({ task_id, baseline: score, candidate: other });
  }
  return pairs.sort((x, y) => x.task_id.localeCompare(y.task_id));
}
