import type { MetricResult } from '../core/experiment.ts';
import {
  isExcludedError,
  type OverallScore,
  OverallScoreTally,
  overallScore,
} from '../core/overall-score.ts';
import { emptyResult, type MetricShape, meanOverTasks, metricResult } from './aggregate.ts';
import { defineBuiltin, meanMetric } from './define.ts';
import type { FoldContext } from './fold.ts';

/**
 * The seed-004 process metrics, read from each record's `metrics` (ProcessMetrics) and `scores`.
 * Counts of prompts, HITL steps and breakers are facts about a run whether or not its grading is
 * still pending, so pending trials count; scores that a pending grade would change do not.
 */

export const promptsUnplanned = meanMetric('prompts_unplanned', {
  unit: 'count',
  excludePending: false,
  trialValue: (r) => r.metrics.prompts_unplanned,
});

export const promptsTotal = meanMetric('prompts_total', {
  unit: 'count',
  excludePending: false,
  trialValue: (r) => r.metrics.prompts_total,
});

export const hitlUnplanned = meanMetric('hitl_unplanned', {
  unit: 'count',
  excludePending: false,
  trialValue: (r) => r.metrics.hitl_unplanned,
});

export const hitlTotal = meanMetric('hitl_total', {
  unit: 'count',
  excludePending: false,
  trialValue: (r) => r.metrics.hitl_total,
});

/** Share of reviewed runs approved on first pass; runs with no review (null) are not counted. */
export const firstPassApprovalRate = meanMetric('first_pass_approval_rate', {
  unit: 'ratio',
  bounds: [0, 1],
  excludePending: false,
  trialValue: (r) => (r.metrics.first_pass_approval === null ? null : r.metrics.first_pass_approval ? 1 : 0),
  skippedAs: 'not_reviewed',
});

export const humanTimeMin = meanMetric('human_time_min', {
  unit: 'minutes',
  excludePending: false,
  trialValue: (r) => r.metrics.human_minutes,
});

export const circuitBreakers = meanMetric('circuit_breakers', {
  unit: 'count',
  excludePending: false,
  trialValue: (r) => r.metrics.circuit_breakers_fired,
});

function overallScoreResult(context: FoldContext, shape: MetricShape, score: OverallScore): MetricResult {
  const perTask = [...score.per_task].map(([task, value]) => ({ task, value }));
  const weights = new Map(context.tasks.map((t) => [t.id, t.weight]));
  const equal = new Set(perTask.map((t) => weights.get(t.task) ?? 1)).size <= 1;
  const details = {
    decided: score.decided,
    environment_errors: score.environment_errors,
    definition: 'task-weighted mean of decided trials’ overall scores',
  };
  let result: MetricResult;
  if (score.value === null) result = emptyResult(shape, details);
  else if (equal) result = { ...meanOverTasks(context, perTask, shape, details), value: score.value };
  else
    result = metricResult(
      shape,
      { value: score.value, stderr: weightedStandardError(perTask, weights), n: perTask.length },
      { ...details, stderr_method: 'weighted_mean_over_tasks' },
    );
  if (score.pending === 0) return { ...result, details: { ...result.details, pending: 0 } };
  return {
    ...result,
    stderr: null,
    ci95: null,
    details: {
      ...result.details,
      pending: score.pending,
      ...(score.possible_range === null ? {} : { possible_range: [...score.possible_range] }),
      interval_omitted: 'trials are pending: an interval over the decided ones alone would be biased',
    },
  };
}

/**
 * The experiment's overall score, by the one definition every output uses (`overallScore` in
 * core: the task-weighted mean of decided trials' overall scores). Its error bar is over the
 * per-task means; with unequal task weights it is the SE of a weighted mean.
 */
export const overallScoreMetric = defineBuiltin('overall_score', {
  unit: 'score',
  bounds: [0, 1],
  fold(context, shape) {
    const tally = new OverallScoreTally(context.tasks);
    return {
      add: (record) => tally.add(record),
      result: () => overallScoreResult(context, shape, tally.result()),
    };
  },
  perTask: (input) => overallScore(input.records, input.tasks).per_task,
});

/** SE of Σw·x / Σw over tasks: sqrt(n/(n-1) · Σ w²(x - x̄)²) / Σw. */
function weightedStandardError(
  values: readonly { task: string; value: number }[],
  weights: ReadonlyMap<string, number>,
): number | null {
  const n = values.length;
  if (n < 2) return null;
  const w = values.map((v) => weights.get(v.task) ?? 1);
  const total = w.reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  const mean = values.reduce((s, v, i) => s + (w[i] ?? 0) * v.value, 0) / total;
  const spread = values.reduce((s, v, i) => s + (w[i] ?? 0) ** 2 * (v.value - mean) ** 2, 0);
  return Math.sqrt((n / (n - 1)) * spread) / total;
}

/** Passed automated criteria / automated criteria: the record's score, else its criteria counts. */
export const functionalCompleteness = meanMetric('functional_completeness', {
  unit: 'ratio',
  bounds: [0, 1],
  excludePending: false,
  trialValue: (r) => {
    // A check that could not run (or a trial whose infrastructure failed) says nothing about how
    // complete the harness's work is.
    if (isExcludedError(r)) return null;
    const score = r.scores.functional_completeness;
    if (score !== undefined) return score;
    const total = r.metrics.acceptance_criteria_total;
    return total > 0 ? r.metrics.acceptance_criteria_passed / total : null;
  },
  skippedAs: 'no_criteria',
});
