import type { Rubric } from '../core/rubric.ts';
import type { Suite } from '../core/suite.ts';
import type { Task } from '../core/task.ts';
import { dimensionWeights } from './rubric-score.ts';

/**
 * The rubric a task's rubric criteria are graded on: the one it names (by id or by file), or
 * the suite's only rubric when the task names none.
 */
export function rubricForTask(
  suite: Pick<Suite, 'rubrics'>,
  task: Pick<Task, 'rubric'> | undefined,
): Rubric | undefined {
  const named = task?.rubric;
  if (named === undefined) return suite.rubrics.length === 1 ? suite.rubrics[0] : undefined;
  return suite.rubrics.find((r) => r.id === named || r.source === named);
}

/** Dimension weights of the task's rubric, by dimension name. */
export function rubricWeights(
  suite: Pick<Suite, 'rubrics'>,
  task: Pick<Task, 'rubric'> | undefined,
): Record<string, number> {
  return dimensionWeights(rubricForTask(suite, task));
}
