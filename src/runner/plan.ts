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

/** The trials of a plan, in plan order, each made when it is reached. */
export interface TrialPlan extends Iterable<Trial> {
  /** How many trials the plan holds. */
  readonly length: number;
}

/**
 * Every trial in file order, epoch by epoch within a task, that `runs` (default: all) — a
 * resume's are those not done yet (`StoredTrials.runs`). The trials are made as they are iterated,
 * not held: a list of them cost ~80 bytes a trial (the object and its key), 80 MB of a
 * 1,000,000-trial run's heap for its whole length.
 */
export function planTrials(
  tasks: readonly Task[],
  epochs: number,
  runs: (taskIndex: number, epoch: number) => boolean = () => true,
): TrialPlan {
  let length = 0;
  for (let taskIndex = 0; taskIndex < tasks.length; taskIndex++)
    for (let epoch = 0; epoch < epochs; epoch++) if (runs(taskIndex, epoch)) length++;
  return {
    length,
    *[Symbol.iterator]() {
      for (let taskIndex = 0; taskIndex < tasks.length; taskIndex++) {
        const task = tasks[taskIndex]!;
        for (let epoch = 0; epoch < epochs; epoch++)
          if (runs(taskIndex, epoch)) yield { task, taskIndex, epoch, key: trialKey(task.id, epoch) };
      }
    },
  };
}
