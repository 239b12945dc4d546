import type { RunSettings } from '../core/experiment.ts';
import type { Task } from '../core/task.ts';
import { compileGlob } from '../util/glob.ts';

/** One unit of work: a task at one epoch. `key` is stable across runs and used for resume. */
export interface Trial {
  readonly task: Task;
  readonly taskIndex: number;
  readonly epoch: number;
  readonly key: string;
}

export function trialKey(taskId: string, epoch: number): string {
  return `${taskId}#${epoch}`;
}

/** Tasks that pass `--filter-id` (glob), `--filter-tag` and `--filter-difficulty`, in file order. */
export function filterTasks(tasks: readonly Task[], filters: RunSettings['filters']): Task[] {
  const matchesId = filters.id === undefined ? undefined : compileGlob(filters.id);
  return tasks.filter(
    (task) =>
      (matchesId === undefined || matchesId(task.id)) &&
      (filters.tag === undefined || task.tags.includes(filters.tag)) &&
      (filters.difficulty === undefined || task.difficulty === filters.difficulty),
  );
}

/**
 * Every trial in file order, epoch by epoch within a task, that `runs` (default: all) — a
 * resume's are those not done yet (`StoredTrials.runs`).
 */
export function planTrials(
  tasks: readonly Task[],
  epochs: number,
  runs: (taskIndex: number, epoch: number) => boolean = () => true,
): Trial[] {
  const trials: Trial[] = [];
  tasks.forEach((task, taskIndex) => {
    for (let epoch = 0; epoch < epochs; epoch++)
      if (runs(taskIndex, epoch)) trials.push({ task, taskIndex, epoch, key: trialKey(task.id, epoch) });
  });
  return trials;
}
