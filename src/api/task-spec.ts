import { HarnessEvalError } from '../core/errors.ts';
import type { Rubric } from '../core/rubric.ts';
import { type Suite, type SuiteFormat, SuiteSchema } from '../core/suite.ts';
import type { Task } from '../core/task.ts';
import type { PluginSet } from '../plugins/set.ts';

/** How each file kind names itself and what it holds, for the one-task refusal. */
const FILE_KIND_WORDS: Record<SuiteFormat, { file: string; items: string }> = {
  'task-spec-v1': { file: 'task spec', items: 'tasks' },
  'suite-v1': { file: 'suite', items: 'tasks' },
  'benchmark-v1': { file: 'benchmark', items: 'tests' },
  'eval-case-v0': { file: 'dataset', items: 'cases' },
  'harbor-v1': { file: 'Harbor task folder set', items: 'tasks' },
};

/** A loaded seed-004 task spec: the task, and the one-task suite (with its rubric) it runs as. */
export class TaskSpec {
  private constructor(private readonly suite: Suite) {}

  /**
   * Loads and validates a file holding one task (a task spec YAML, or a benchmark or dataset with
   * one entry); `ref:` inputs and the rubric resolve relative to the file. A file with more tasks
   * is refused, naming its kind and count: load it with `loadSuite(path)` and run it with
   * `runExperiment`. Names resolve in `options.plugins` (a plugin set), else in the default set.
   */
  static async fromFile(path: string, options: { readonly plugins?: PluginSet } = {}): Promise<TaskSpec> {
    const { loadSuite } = await import('../formats/index.ts');
    const suite = await loadSuite(path, options.plugins === undefined ? {} : { plugins: options.plugins });
    if (suite.tasks.length !== 1) {
      const kind = FILE_KIND_WORDS[suite.source?.format ?? 'suite-v1'];
      throw new HarnessEvalError(
        'invalid_input',
        `${path}: a ${kind.file} with ${suite.tasks.length} ${kind.items}, and a TaskSpec is one task; load it with loadSuite(path) and run it with runExperiment({ suite, harness })`,
        { data: { path, tasks: suite.tasks.length } },
      );
    }
    return new TaskSpec(suite);
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
