import { type OverallScore, overallScore } from '../core/overall-score.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { Scoring } from '../core/suite.ts';

export interface SuiteScore {
  /** The experiment's overall score (`overallScore`: decided trials only, by task weight). */
  readonly overall: number | null;
  readonly outcome: 'pass' | 'fail' | 'pending' | 'error';
  readonly tasks_scored: number;
  /** The counts behind `overall`: decided, pending and environment-error trials. */
  readonly detail: OverallScore;
}

/**
 * The suite score and outcome from its run records (seed 004: weighted_average + pass_threshold).
 * While a grade is outstanding the score is partial, so the verdict waits too; a run whose every
 * trial hit an environment (or infrastructure) error has no verdict on the harness, only an error.
 */
export function scoreSuite(
  records: readonly RunRecord[],
  tasks: readonly { id: string; weight: number }[],
  scoring: Scoring,
): SuiteScore {
  return suiteScoreOf(overallScore(records, tasks), scoring);
}

/** `scoreSuite` from the overall score of the records (a run folds it as it goes). */
export function suiteScoreOf(detail: OverallScore, scoring: Scoring): SuiteScore {
  const base = { overall: detail.value, tasks_scored: detail.tasks, detail };
  if (detail.pending > 0) return { ...base, outcome: 'pending' };
  if (detail.value === null)
    return { ...base, outcome: detail.environment_errors + detail.infra_errors > 0 ? 'error' : 'fail' };
  return { ...base, outcome: detail.value >= scoring.pass_threshold ? 'pass' : 'fail' };
}
