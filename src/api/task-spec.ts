import type { Rubric } from '../core/rubric.ts';
import { type Suite, SuiteSchema } from '../core/suite.ts';
import type { Task } from '../core/task.ts';

/** A loaded seed-004 task spec: the task, and the one-task suite (with its rubric) it runs as. */
export class TaskSpec {
  private constructor(private readonly suite: Suite) {}

  /** Loads and validates a task spec YAML; `ref:` inputs and the rubric resolve relative to the file. */
  static async fromFile(path: string): Promise<TaskSpec> {
    const { loadSuite } = await import('../formats/index.ts');
    return new TaskSpec(await loadSuite(path));
  }

  /** Wraps a task built in code (schema defaults for scoring). */
  static fromTask(task: Task, rubric?: Rubric): TaskSpec {
    return new TaskSpec(
      SuiteSchema.parse({
        id: task.id,
        tasks: [rubric === undefined ? task : { ...task, rubric: rubric.id }],
        rubrics: rubric === undefined ? [] : [rubric],
      }),
    );
  }

  get task(): Task {
    const task = this.suite.tasks[0];
    if (task === undefined) throw new Error('a task spec holds one task');
    return task;
  }

  get rubric(): Rubric | undefined {
    return this.suite.rubrics[0];
  }

  get id(): string {
    return this.task.id;
  }

  /** The one-task suite, so a task spec runs through the same runner as any suite. */
  toSuite(): Suite {
    return this.suite;
  }
}
