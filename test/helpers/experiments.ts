import { type Experiment, type ExperimentDraft, ExperimentSchema } from '../../src/core/experiment.ts';
import { type RunRecord, type RunRecordDraft, RunRecordSchema } from '../../src/core/run-record.ts';

/**
 * Small factories of schema-valid experiments and run records for tests. Every field has a
 * plain default; pass only what the test is about.
 *
 * @example makeExperiment({ id: 'exp-2', records: [makeRecord({ task_id: 'b', outcome: 'fail' })] })
 */

export const DEFAULT_TASK_IDS = ['alpha', 'bravo', 'charlie'] as const;

/** A run record of task `alpha`, epoch 0, that passed; `run_id` defaults to `task_id#epoch`. */
export function makeRecord(overrides: Partial<RunRecordDraft> = {}): RunRecord {
  const taskId = overrides.task_id ?? 'alpha';
  const epoch = overrides.epoch ?? 0;
  return RunRecordSchema.parse({
    run_id: `${taskId}#${epoch}`,
    task_id: taskId,
    epoch,
    harness_config: { name: 'echo-harness', version: '1.0.0' },
    timestamp: '2026-01-01T00:00:00.000Z',
    duration_seconds: 0.25,
    outcome: 'pass',
    output: { output: `answer for ${taskId}`, latency: 0.25 },
    ...overrides,
  });
}

/** A completed experiment over tasks alpha, bravo, charlie with no records (add them in overrides). */
export function makeExperiment(overrides: Partial<ExperimentDraft> = {}): Experiment {
  return ExperimentSchema.parse({
    id: 'exp-0001',
    suite: {
      id: 'hello-suite',
      name: 'Hello suite',
      tasks: DEFAULT_TASK_IDS.map((id) => ({ id })),
    },
    harness: { name: 'echo-harness', version: '1.0.0', adapter: 'function' },
    status: 'completed',
    created_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:01:00.000Z',
    settings: {},
    environment: { harnesseval_version: '0.1.0', node_version: 'v20.0.0', platform: 'linux' },
    ...overrides,
  });
}

/** One record per task and epoch, in file order, all passing unless `outcome` says otherwise. */
export function makeRecords(
  experiment: Experiment,
  options: { epochs?: number; outcome?: RunRecord['outcome'] } = {},
): RunRecord[] {
  const records: RunRecord[] = [];
  for (const task of experiment.suite.tasks) {
    for (let epoch = 0; epoch < (options.epochs ?? 1); epoch++) {
      records.push(makeRecord({ task_id: task.id, epoch, outcome: options.outcome ?? 'pass' }));
    }
  }
  return records;
}

/** A metric result with a value and an interval, for experiments that carry metrics. */
export function makeMetric(name: string, value: number): Experiment['metrics'][number] {
  return {
    name,
    value,
    formatted_value: value.toFixed(3),
    direction: 'higher_is_better',
    n: 3,
    stderr: 0.05,
    ci95: [value - 0.1, value + 0.1],
    description: '',
    details: {},
  };
}

/** A rate metric (shown as a percentage) with n = 25, or n = 0 when its value is null. */
export function rateMetric(
  name: string,
  value: number | null,
  extra: Partial<Experiment['metrics'][number]> = {},
): Experiment['metrics'][number] {
  return {
    name,
    value,
    formatted_value: value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`,
    direction: 'higher_is_better',
    n: value === null ? 0 : 25,
    stderr: null,
    ci95: null,
    description: '',
    details: {},
    ...extra,
  };
}
