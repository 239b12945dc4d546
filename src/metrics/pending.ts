import type { MetricResult } from '../core/experiment.ts';
import { mean } from '../stats/descriptive.ts';
import type { MetricShape } from './aggregate.ts';
import { type Tally, TaskSums } from './fold.ts';

/**
 * A rate or score while some trials are still pending. Failures are decided at once and passes
 * wait for a grade, so the decided trials are a biased sample: an interval over them would look
 * precise and point the wrong way. The value stays (the decided trials' figure, labelled with its
 * counts), the interval goes, and `possible_range` says where the figure can end up once every
 * pending trial is graded (all at the low bound, all at the high bound).
 *
 * `decided` holds the decided trials' values per task, `pending` the pending trials per task.
 */
export function shownWithPending(
  result: MetricResult,
  shape: MetricShape,
  decided: TaskSums,
  pending: Tally,
): MetricResult {
  if (pending.total === 0)
    return { ...result, details: { ...result.details, decided: decided.trials, pending: 0 } };
  // Each task's mean with its pending trials at `value` (after its decided ones); tasks with only
  // pending trials come after the others, as they would in a list of decided then pending trials.
  const at = (value: number) => {
    const means = decided.means({ value, times: (task) => pending.get(task) });
    const only = new TaskSums();
    for (const [task, times] of pending.counts)
      if (!decided.has(task)) for (let k = 0; k < times; k++) only.add(task, value);
    const m = mean([...means.values(), ...only.means().values()]);
    return m !== null && Number.isFinite(m) ? m : null;
  };
  const range = shape.bounds === undefined ? null : [at(shape.bounds[0]), at(shape.bounds[1])];
  return {
    ...result,
    stderr: null,
    ci95: null,
    details: {
      ...result.details,
      decided: decided.trials,
      pending: pending.total,
      ...(range === null || range.some((v) => v === null) ? {} : { possible_range: range }),
      interval_omitted: 'trials are pending: an interval over the decided ones alone would be biased',
    },
  };
}
