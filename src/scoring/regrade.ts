import type { Grade } from '../core/evaluation.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { Scoring } from '../core/suite.ts';
import { processMetrics } from '../instrument/process-metrics.ts';
import { scoreRecord } from './record-score.ts';

/**
 * A record with new grades on one rubric or human criterion: the criterion's score is the
 * weighted mean of its dimensions, it passes at the suite's pass threshold, and the record's
 * scores, outcome and criteria counts are recomputed.
 */
export function applyGrades(
  record: RunRecord,
  criterionId: string,
  grades: readonly Grade[],
  scoring: Scoring,
  rubricWeights: Readonly<Record<string, number>>,
): RunRecord {
  const criteria = record.criteria.map((c) => {
    if (c.id !== criterionId) return c;
    const kept = c.grades.filter((g) => !grades.some((n) => n.dimension === g.dimension));
    const all = [...kept, ...grades];
    const weight = all.reduce((s, g) => s + (rubricWeights[g.dimension] ?? 1), 0);
    const score =
      weight > 0 ? all.reduce((s, g) => s + g.score * (rubricWeights[g.dimension] ?? 1), 0) / weight : 0;
    return {
      ...c,
      grades: all,
      score,
      status: score >= scoring.pass_threshold ? ('passed' as const) : ('failed' as const),
      explanation: all.map((g) => `${g.dimension}: level ${g.level} (${g.grader})`).join(', '),
    };
  });
  const { scores, outcome } = scoreRecord({
    evaluations: record.evaluations,
    criteria,
    rubricWeights,
    scoring,
    // `error` is set when the trial errored (an environment error too); an error its task expected
    // (expect_error) is its output.
    errored:
      record.error !== undefined || record.error_kind === 'environment' || record.error_kind === 'infra',
  });
  const metrics = {
    ...processMetrics(record.trace, criteria),
    tokens_in: record.metrics.tokens_in,
    tokens_out: record.metrics.tokens_out,
  };
  return { ...record, criteria, scores, outcome, metrics };
}
