import type { MetricResult } from '../core/experiment.ts';
import { type MetricShape, meanOverTasks, type TrialValue } from './aggregate.ts';
import type { MetricInput } from './types.ts';

/**
 * A rate or score while some trials are still pending. Failures are decided at once and passes
 * wait for a grade, so the decided trials are a biased sample: an interval over them would look
 * precise and point the wrong way. The value stays (the decided trials' figure, labelled with its
 * counts), the interval goes, and `possible_range` says where the figure can end up once every
 * pending trial is graded (all at the low bound, all at the high bound).
 */
export function shownWithPending(
  result: MetricResult,
  input: MetricInput,
  shape: MetricShape,
  decided: readonly TrialValue[],
  pendingTasks: readonly string[],
): MetricResult {
  if (pendingTasks.length === 0)
    return { ...result, details: { ...result.details, decided: decided.length, pending: 0 } };
  const at = (value: number) =>
    meanOverTasks(input, [...decided, ...pendingTasks.map((task) => ({ task, value }))], shape).value;
  const range = shape.bounds === undefined ? null : [at(shape.bounds[0]), at(shape.bounds[1])];
  return {
    ...result,
    stderr: null,
    ci95: null,
    details: {
      ...result.details,
      decided: decided.length,
      pending: pendingTasks.length,
      ...(range === null || range.some((v) => v === null) ? {} : { possible_range: range }),
      interval_omitted: 'trials are pending: an interval over the decided ones alone would be biased',
    },
  };
}
