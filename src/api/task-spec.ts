import type { Rubric } from '../core/rubric.ts';
import type { Suite } from '../core/suite.ts';
import type { Task } from '../core/task.ts';

/** A loaded seed-004 task spec: the task and the rubric its rubric criteria are graded on. */
export class TaskSpec {
  private constructor(
    readonly task: Task,
    readonly rubric: Rubric | undefined,
    readonly file: string | undefined,
  ) {}

  /** Loads and validates a task spec YAML; `ref:` inputs resolve relative to the file. */
  static async fromFile(path: string): Promise<TaskSpec> {
    const { loadTaskSpec, loadRubric } = await import('../formats/index.ts');
    const task = await loadTaskSpec(path);
    const rubric = task.rubric === undefined ? undefined : await loadRubric(task.rubric);
    return new TaskSpec(task, rubric, path);
  }

  /** Wraps a task built in code. */
  static fromTask(task: Task, rubric?: Rubric): TaskSpec {
    return new TaskSpec(task, rubric, task.source?.file);
  }

  get id(): string {
    return this.task.id;
  }

  /** A one-task suite, so a task spec runs through the same runner as any suite. */
  toSuite(): Suite {
    return {
      schema_version: 1,
      id: this.task.id,
      tasks: [this.rubric === undefined ? this.task : { ...this.task, rubric: this.rubric.id }],
      evaluators: [],
      metrics: [],
      thresholds: {},
      scoring: {
        method: 'weighted_average',
        pass_threshold: 0.75,
        weights: { functional: 0.6, rubric: 0.4 },
      },
      rubrics: this.rubric === undefined ? [] : [this.rubric],
      ...(this.file === undefined
        ? {}
        : { source: { format: 'task-spec-v1' as const, file: this.file, hash: '' } }),
    };
  }
}
