import type { AgentV1 } from '../adapters/types.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { Harness } from '../instrument/harness.ts';
import type { PluginSet } from '../plugins/set.ts';
import type { ExperimentStore } from '../store/types.ts';
import { TaskRun } from './task-run.ts';
import { TaskSpec } from './task-spec.ts';

export interface EvaluatorConfig {
  readonly version: string;
  readonly trustTier?: string;
  readonly name?: string;
  readonly model?: string;
  readonly agents?: readonly string[];
  readonly timeoutSeconds?: number;
  readonly keepWorkspace?: boolean;
  readonly seed?: number;
}

export interface EvaluatorInit {
  /** An in-process harness (`run(task, ctx)`) or any adapter agent; `runExperiment` takes the same. */
  readonly harness: Harness | AgentV1;
  readonly task: TaskSpec;
  readonly config: EvaluatorConfig;
  /** Store the run as a one-task experiment too. */
  readonly store?: ExperimentStore;
  /** Where the task's evaluator, metric and adapter names resolve; the default set when absent. */
  readonly plugins?: PluginSet;
}

/**
 * Runs one task through a harness with instrumentation (seed 004):
 * `const runRecord = await new Evaluator({ harness, task, config: { version: '0.3.1' } }).run()`.
 */
export class Evaluator {
  private lastExperiment: Experiment | undefined;

  constructor(private readonly init: EvaluatorInit) {
    if (!(init.task instanceof TaskSpec))
      throw new HarnessEvalError('usage', 'task must be a TaskSpec (TaskSpec.fromFile(path))');
  }

  /** Executes the harness on the task and returns its run record. */
  async run(): Promise<TaskRun> {
    const { harness, task, config } = this.init;
    const [{ runExperiment }, { resolveHarness }] = await Promise.all([
      import('../runner/runner.ts'),
      import('../runner/harness-input.ts'),
    ]);
    const resolved = resolveHarness(harness, undefined, config);
    const suite = task.toSuite();
    // A TaskSpec holds one task; the guard keeps a hand-built one from running a whole suite.
    if (suite.tasks.length !== 1)
      throw new HarnessEvalError(
        'usage',
        `an Evaluator runs one task; this TaskSpec holds ${suite.tasks.length}`,
      );
    const experiment = await runExperiment({
      suite,
      harness: resolved.harness,
      ...(resolved.agent === undefined ? {} : { agent: resolved.agent }),
      ...(this.init.store === undefined ? {} : { store: this.init.store }),
      ...(this.init.plugins === undefined ? {} : { plugins: this.init.plugins }),
      keepWorkspaces: config.keepWorkspace === true,
      settings: {
        concurrency: 1,
        epochs: 1,
        ...(config.timeoutSeconds === undefined ? {} : { timeout_seconds: config.timeoutSeconds }),
        ...(config.seed === undefined ? {} : { seed: config.seed }),
      },
    });
    this.lastExperiment = experiment;
    const record = experiment.records[0];
    if (record === undefined) throw new HarnessEvalError('internal', 'the run produced no record');
    return new TaskRun(record, experiment);
  }

  /** The one-task experiment behind the last `run()` (metrics, environment). */
  get experiment(): Experiment | undefined {
    return this.lastExperiment;
  }
}
