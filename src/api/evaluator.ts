import type { AgentV1 } from '../adapters/types.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import { type Harness, harnessAgent } from '../instrument/harness.ts';
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
  /** An in-process harness (`run(task, ctx)`) or any adapter agent. */
  readonly harness: Harness | AgentV1;
  readonly task: TaskSpec;
  readonly config: EvaluatorConfig;
  /** Store the run as a one-task experiment too. */
  readonly store?: ExperimentStore;
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
    const agent: AgentV1 = 'specificationVersion' in harness ? harness : harnessAgent(harness);
    const harnessConfig: HarnessConfig = {
      schema_version: 1,
      name: config.name ?? ('name' in harness && typeof harness.name === 'string' ? harness.name : 'harness'),
      version: config.version,
      adapter: 'in-process',
      options: {},
      agents: [...(config.agents ?? [])],
      metadata: {},
      ...(config.model === undefined ? {} : { model: config.model }),
      ...(config.trustTier === undefined ? {} : { trust_tier: config.trustTier }),
    };
    const { runExperiment } = await import('../runner/runner.ts');
    const experiment = await runExperiment({
      suite: task.toSuite(),
      harness: harnessConfig,
      agent,
      ...(this.init.store === undefined ? {} : { store: this.init.store }),
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
    return new TaskRun(record);
  }

  /** The one-task experiment behind the last `run()` (metrics, environment). */
  get experiment(): Experiment | undefined {
    return this.lastExperiment;
  }
}
