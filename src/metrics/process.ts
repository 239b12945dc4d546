import { meanMetric } from './define.ts';

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

export const overallScore = meanMetric('overall_score', {
  unit: 'score',
  bounds: [0, 1],
  excludePending: true,
  trialValue: (r) => r.scores.overall ?? null,
  skippedAs: 'unscored',
});

/** Passed automated criteria / automated criteria: the record's score, else its criteria counts. */
export const functionalCompleteness = meanMetric('functional_completeness', {
  unit: 'ratio',
  bounds: [0, 1],
  excludePending: false,
  trialValue: (r) => {
    const score = r.scores.functional_completeness;
    if (score !== undefined) return score;
    const total = r.metrics.acceptance_criteria_total;
    return total > 0 ? r.metrics.acceptance_criteria_passed / total : null;
  },
  skippedAs: 'no_criteria',
});
