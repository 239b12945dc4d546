import type { CriterionResult, Grade } from '../core/evaluation.ts';
import type { Rubric, RubricDimension, RubricLevel } from '../core/rubric.ts';
import type { Criterion } from '../core/task.ts';

// The rubric scoring rules, written once: how a level becomes a score, which dimensions a criterion
// is graded on, how graded dimensions combine, and what a criterion waiting for a grade looks like.
// The judge, `harnesseval grade`, the viewer and the record score all use these.

/** The score of a rubric level (1..4, validated where it was read): 1 -> 0, 2 -> 1/3, 3 -> 2/3, 4 -> 1. */
export function rubricLevelScore(level: number): number {
  return (level - 1) / 3;
}

/** Whether a number is a rubric level (1, 2, 3 or 4), for levels a person typed or posted. */
export function isRubricLevel(level: number): level is RubricLevel {
  return level === 1 || level === 2 || level === 3 || level === 4;
}

/** The dimensions a criterion is graded on: those it names in `rubric_dimensions`, else all of its rubric's. */
export function criterionDimensions(
  rubric: Rubric | undefined,
  criterion: Pick<Criterion, 'rubric_dimensions'> | undefined,
): RubricDimension[] {
  const wanted = criterion?.rubric_dimensions;
  return (rubric?.dimensions ?? []).filter((d) => wanted === undefined || wanted.includes(d.name));
}

/** Dimension weights of a rubric, by dimension name. */
export function dimensionWeights(rubric: Rubric | undefined): Record<string, number> {
  return Object.fromEntries((rubric?.dimensions ?? []).map((d) => [d.name, d.weight]));
}

/**
 * The weighted mean of scored dimensions. A dimension the weights do not name (a grade kept from an
 * older rubric, a task whose rubric cannot be found) weighs 1, so unknown weights give the plain
 * mean rather than nothing. Undefined when the weights add up to 0.
 */
export function weightedDimensionScore(
  parts: readonly { readonly dimension: string; readonly score: number }[],
  weights: Readonly<Record<string, number>>,
): number | undefined {
  let weighted = 0;
  let total = 0;
  for (const { dimension, score } of parts) {
    const weight = weights[dimension] ?? 1;
    weighted += weight * score;
    total += weight;
  }
  return total > 0 ? weighted / total : undefined;
}

/**
 * A rubric or human criterion once graded: its score is the weighted mean of its grades (0 when
 * every graded dimension weighs 0), and it passes at the suite's pass threshold.
 */
export function gradedCriterion(
  criterion: Pick<CriterionResult, 'id' | 'verification'>,
  grades: readonly Grade[],
  weights: Readonly<Record<string, number>>,
  passThreshold: number,
): CriterionResult {
  const score = weightedDimensionScore(grades, weights) ?? 0;
  return {
    id: criterion.id,
    verification: criterion.verification,
    status: score >= passThreshold ? 'passed' : 'failed',
    score,
    explanation: grades.map((g) => `${g.dimension}: level ${g.level} (${g.grader})`).join(', '),
    grades: [...grades],
    details: {},
  };
}

/** A criterion's grades with `grades` put in: a new grade replaces the old one of its dimension. */
export function mergeGrades(kept: readonly Grade[], grades: readonly Grade[]): Grade[] {
  return [...kept.filter((g) => !grades.some((n) => n.dimension === g.dimension)), ...grades];
}

/** A rubric or human criterion that waits for a grade (neither failed nor passed), with the reason. */
export function pendingCriterion(
  criterion: Pick<Criterion, 'id' | 'verification'>,
  reason: string,
): CriterionResult {
  return {
    id: criterion.id,
    verification: criterion.verification,
    status: 'pending',
    score: null,
    explanation: reason,
    grades: [],
    details: {},
  };
}

/** Whether a criterion result waits for a rubric or human grade (what `grade` and the viewer ask). */
export function awaitsGrade(criterion: Pick<CriterionResult, 'status' | 'verification'>): boolean {
  return criterion.status === 'pending' && criterion.verification !== 'automated';
}

/** A person's grade of one dimension. */
export function humanGrade(dimension: string, level: RubricLevel, grader: string, gradedAt: string): Grade {
  return {
    dimension,
    level,
    score: rubricLevelScore(level),
    rationale: '',
    grader,
    grader_kind: 'human',
    graded_at: gradedAt,
  };
}
