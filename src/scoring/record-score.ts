import type { CriterionResult, EvaluationResult } from '../core/evaluation.ts';
import type { Outcome } from '../core/run-record.ts';
import type { Scoring } from '../core/suite.ts';
import { weightedDimensionScore } from './rubric-score.ts';

export interface RecordScoreInput {
  /** Evaluators that are not tied to a criterion (a benchmark's checks). */
  readonly evaluations: readonly EvaluationResult[];
  readonly criteria: readonly CriterionResult[];
  /** Rubric dimension weights by name (from the task's rubric), for the rubric part. */
  readonly rubricWeights: Readonly<Record<string, number>>;
  readonly scoring: Scoring;
  readonly errored: boolean;
}

export interface RecordScore {
  readonly scores: Record<string, number>;
  readonly outcome: Outcome;
}

/**
 * A run's scores and outcome.
 * - functional_completeness = passed automated checks / automated checks (criteria with
 *   `verification: automated`, plus evaluators not tied to a criterion);
 * - each graded rubric dimension's score (`rubricLevelScore`) averaged over grades; the rubric part
 *   is their weighted mean (`weightedDimensionScore`);
 * - overall = the suite's weights over the parts that exist (functional only when the task has
 *   no rubric criteria); none while a criterion is pending;
 * - outcome: error if the harness failed; fail if a check failed or overall < pass_threshold;
 *   pending while a rubric/human criterion waits for a grade; pass otherwise;
 * - scores a check names in `details.scores` (see `namedScores`).
 */
export function scoreRecord(input: RecordScoreInput): RecordScore {
  const automated = input.criteria.filter((c) => c.verification === 'automated');
  const checks = [...input.evaluations.map((e) => e.passed), ...automated.map((c) => c.status === 'passed')];
  const scores: Record<string, number> = {};
  if (checks.length > 0) scores['functional_completeness'] = checks.filter(Boolean).length / checks.length;

  const dimensionScores = new Map<string, number[]>();
  for (const criterion of input.criteria) {
    for (const grade of criterion.grades) {
      const list = dimensionScores.get(grade.dimension) ?? [];
      list.push(grade.score);
      dimensionScores.set(grade.dimension, list);
    }
  }
  const dimensionMeans: { dimension: string; score: number }[] = [];
  for (const [dimension, list] of dimensionScores) {
    const mean = list.reduce((a, b) => a + b, 0) / list.length;
    scores[dimension] = mean;
    dimensionMeans.push({ dimension, score: mean });
  }
  const rubricScore = weightedDimensionScore(dimensionMeans, input.rubricWeights);
  if (rubricScore !== undefined) scores['rubric'] = rubricScore;

  const functional = scores['functional_completeness'];
  const { functional: wf, rubric: wr } = input.scoring.weights;
  if (input.errored) {
    scores['overall'] = 0;
  } else if (functional !== undefined && rubricScore !== undefined && wf + wr > 0) {
    scores['overall'] = (wf * functional + wr * rubricScore) / (wf + wr);
  } else if (functional !== undefined) {
    scores['overall'] = functional;
  } else if (rubricScore !== undefined) {
    scores['overall'] = rubricScore;
  }

  for (const [name, value] of namedScores(input)) if (!(name in scores)) scores[name] = value;
  const outcome = outcomeOf(input, checks, scores['overall']);
  // Until every criterion is graded the trial has no overall score: the parts that exist are not
  // the whole (an ungraded rubric is neither 0 nor perfect).
  if (outcome === 'pending') delete scores['overall'];
  return { scores, outcome };
}

/**
 * Scores a check reports by name in `details.scores` (a Harbor verifier's rewards: `reward`,
 * `correctness`, …), averaged over the checks that report each; values outside 0..1 are left out
 * (the check's details keep them).
 */
function namedScores(input: RecordScoreInput): Map<string, number> {
  const sums = new Map<string, { total: number; n: number }>();
  for (const { details } of [...input.evaluations, ...input.criteria]) {
    const reported = details['scores'];
    if (reported === null || typeof reported !== 'object' || Array.isArray(reported)) continue;
    for (const [name, value] of Object.entries(reported)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) continue;
      const sum = sums.get(name) ?? { total: 0, n: 0 };
      sum.total += value;
      sum.n += 1;
      sums.set(name, sum);
    }
  }
  return new Map([...sums].map(([name, { total, n }]) => [name, total / n]));
}

function outcomeOf(
  input: RecordScoreInput,
  checks: readonly boolean[],
  overall: number | undefined,
): Outcome {
  if (input.errored) return 'error';
  if (checks.some((passed) => !passed)) return 'fail';
  if (input.criteria.some((c) => c.status === 'error')) return 'fail';
  if (input.criteria.some((c) => c.status === 'pending')) return 'pending';
  const hasRubric = input.criteria.some((c) => c.verification !== 'automated');
  if (hasRubric && overall !== undefined && overall < input.scoring.pass_threshold) return 'fail';
  return 'pass';
}
