import { type RunRecord, type RunRecordDraft, RunRecordSchema } from '../../../src/core/run-record.ts';
import type { MetricInput, MetricTask } from '../../../src/metrics/types.ts';

let counter = 0;

/** A complete RunRecord from the fields a test cares about. */
export function record(
  draft: Partial<RunRecordDraft> & Pick<RunRecordDraft, 'task_id' | 'outcome'>,
): RunRecord {
  counter++;
  return RunRecordSchema.parse({
    run_id: `run-${counter}`,
    harness_config: { name: 'h', version: '1' },
    timestamp: '2026-01-01T00:00:00Z',
    duration_seconds: 1,
    output: { output: 'x' },
    ...draft,
  });
}

/** Records for outcomes per task: { t1: ['pass', 'fail'] } -> two epochs of t1. */
export function outcomes(byTask: Record<string, RunRecord['outcome'][]>): RunRecord[] {
  return Object.entries(byTask).flatMap(([task_id, list]) =>
    list.map((outcome, epoch) => record({ task_id, outcome, epoch })),
  );
}

export function input(
  records: RunRecord[],
  options: { epochs?: number; tasks?: MetricTask[] } = {},
): MetricInput {
  const tasks = options.tasks ?? [...new Set(records.map((r) => r.task_id))].map((id) => ({ id, weight: 1 }));
  return { records, tasks, epochs: options.epochs ?? 1 };
}
