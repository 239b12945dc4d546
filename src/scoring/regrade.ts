import type { Grade } from '../core/evaluation.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { Scoring } from '../core/suite.ts';
import { processMetrics } from '../instrument/process-metrics.ts';
import { scoreRecord } from './record-score.ts';
import { gradedCriterion, mergeGrades } from './rubric-score.ts';

/**
 * A record with new grades on one rubric or human criterion (a new grade replaces the old one of
 * its dimension): the criterion is scored by `gradedCriterion`, and the record's scores, outcome
 * and criteria counts are recomputed.
 */
export function applyGrades(
  record: RunRecord,
  criterionId: string,
  grades: readonly Grade[],
  scoring: Scoring,
  rubricWeights: Readonly<Record<string, number>>,
): RunRecord {
  const criteria = record.criteria.map((c) =>
    c.id === criterionId
      ? {
          ...c,
          ...gradedCriterion(c, mergeGrades(c.grades, grades), rubricWeights, scoring.pass_threshold),
          details: c.details,
        }
      : c,
  );
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
