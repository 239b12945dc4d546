import { describe, expect, it } from 'vitest';
import type { CriterionResult, EvaluationResult } from '../../../src/core/evaluation.ts';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { ScoringSchema } from '../../../src/core/suite.ts';
import { scoreRecord } from '../../../src/scoring/record-score.ts';
import { scoreSuite } from '../../../src/scoring/suite-score.ts';

const scoring = ScoringSchema.parse({});
const evaluation = (passed: boolean): EvaluationResult => ({
  evaluator: 'exact_match',
  score: passed ? 1 : 0,
  passed,
  explanation: '',
  details: {},
  negated: false,
});
const automated = (id: string, status: CriterionResult['status']): CriterionResult => ({
  id,
  verification: 'automated',
  status,
  score: status === 'passed' ? 1 : 0,
  explanation: '',
  grades: [],
  details: {},
});
const rubric = (id: string, grades: { dimension: string; level: number }[]): CriterionResult => ({
  id,
  verification: 'rubric',
  status: grades.length === 0 ? 'pending' : 'passed',
  score: null,
  explanation: '',
  grades: grades.map((g) => ({
    dimension: g.dimension,
    level: g.level,
    score: (g.level - 1) / 3,
    rationale: '',
    grader: 'ann',
    grader_kind: 'human' as const,
    graded_at: '2026-11-30T00:00:00Z',
  })),
  details: {},
});

describe('scoreRecord', () => {
  it('functional completeness is passed automated checks / automated checks', () => {
    const { scores, outcome } = scoreRecord({
      evaluations: [],
      criteria: [
        automated('a', 'passed'),
        automated('b', 'passed'),
        automated('c', 'failed'),
        automated('d', 'passed'),
      ],
      rubricWeights: {},
      scoring,
      errored: false,
    });
    expect(scores['functional_completeness']).toBe(0.75);
    expect(scores['overall']).toBe(0.75);
    expect(outcome).toBe('fail');
  });

  it('combines functional and rubric with the suite weights; level L scores (L-1)/3', () => {
    // functional 1.0; rubric: code_quality level 4 (1.0, weight 0.4), convention level 2 (1/3, weight 0.3)
    // rubric = (0.4*1 + 0.3*(1/3)) / 0.7 = 0.5/0.7 = 0.714285...; overall = 0.6*1 + 0.4*0.714285... = 0.885714...
    const { scores, outcome } = scoreRecord({
      evaluations: [],
      criteria: [
        automated('a', 'passed'),
        rubric('q', [
          { dimension: 'code_quality', level: 4 },
          { dimension: 'convention_adherence', level: 2 },
        ]),
      ],
      rubricWeights: { code_quality: 0.4, convention_adherence: 0.3 },
      scoring,
      errored: false,
    });
    expect(scores['code_quality']).toBe(1);
    expect(scores['convention_adherence']).toBeCloseTo(1 / 3, 12);
    expect(scores['rubric']).toBeCloseTo(0.5 / 0.7, 12);
    expect(scores['overall']).toBeCloseTo(0.6 + 0.4 * (0.5 / 0.7), 12);
    expect(outcome).toBe('pass');
  });

  it('is pending while a rubric criterion waits, and fails below the pass threshold once graded', () => {
    expect(
      scoreRecord({
        evaluations: [],
        criteria: [automated('a', 'passed'), rubric('q', [])],
        rubricWeights: {},
        scoring,
        errored: false,
      }).outcome,
    ).toBe('pending');
    const low = scoreRecord({
      evaluations: [],
      criteria: [automated('a', 'passed'), rubric('q', [{ dimension: 'code_quality', level: 1 }])],
      rubricWeights: { code_quality: 1 },
      scoring,
      errored: false,
    });
    expect(low.scores['overall']).toBeCloseTo(0.6, 12); // 0.6*1 + 0.4*0
    expect(low.outcome).toBe('fail'); // 0.6 < 0.75
  });

  it('an errored run scores 0 with outcome error; evaluator failures fail the run', () => {
    expect(
      scoreRecord({
        evaluations: [evaluation(true)],
        criteria: [],
        rubricWeights: {},
        scoring,
        errored: true,
      }),
    ).toEqual({
      scores: { functional_completeness: 1, overall: 0 },
      outcome: 'error',
    });
    const r = scoreRecord({
      evaluations: [evaluation(true), evaluation(false)],
      criteria: [],
      rubricWeights: {},
      scoring,
      errored: false,
    });
    expect(r.outcome).toBe('fail');
    expect(r.scores['functional_completeness']).toBe(0.5);
  });

  it('with nothing to judge, passes without inventing scores', () => {
    expect(
      scoreRecord({ evaluations: [], criteria: [], rubricWeights: {}, scoring, errored: false }),
    ).toEqual({ scores: {}, outcome: 'pass' });
  });
});

describe('scoreSuite', () => {
  const record = (task_id: string, overall: number | undefined, outcome: RunRecord['outcome'] = 'pass') =>
    ({ task_id, outcome, scores: overall === undefined ? {} : { overall } }) as unknown as RunRecord;

  it('weights each task’s mean over epochs by the task weight', () => {
    // a: mean(1, 0.5) = 0.75 weight 1.0; b: 0.5 weight 0.5 -> (0.75 + 0.25) / 1.5 = 0.6667
    const s = scoreSuite(
      [record('a', 1), record('a', 0.5), record('b', 0.5)],
      [
        { id: 'a', weight: 1 },
        { id: 'b', weight: 0.5 },
      ],
      scoring,
    );
    expect(s.overall).toBeCloseTo(1 / 1.5, 12);
    expect(s.outcome).toBe('fail');
    expect(s.tasks_scored).toBe(2);
  });

  it('passes at the threshold, ignores zero-weight tasks, and gives null when nothing is scored', () => {
    const s = scoreSuite(
      [record('a', 0.75), record('z', 0)],
      [
        { id: 'a', weight: 1 },
        { id: 'z', weight: 0 },
      ],
      scoring,
    );
    expect(s.overall).toBe(0.75);
    expect(s.outcome).toBe('pass');
    expect(scoreSuite([], [{ id: 'a', weight: 1 }], scoring)).toMatchObject({
      overall: null,
      outcome: 'fail',
      tasks_scored: 0,
    });
  });
});

describe('scoreSuite with pending grades', () => {
  it('waits for outstanding grades; a pending trial is neither 0 nor 1 in the score, even from an old store', () => {
    // Stores written before kept a partial `overall` on pending records: it is not counted.
    const pending = { task_id: 'a', outcome: 'pending', scores: { overall: 1 } } as unknown as RunRecord;
    const failed = { task_id: 'b', outcome: 'fail', scores: { overall: 0.2 } } as unknown as RunRecord;
    const tasks = [
      { id: 'a', weight: 1 },
      { id: 'b', weight: 1 },
    ];
    expect(scoreSuite([pending, failed], tasks, scoring)).toMatchObject({
      overall: 0.2,
      outcome: 'pending',
      tasks_scored: 1,
      detail: { decided: 1, pending: 1, possible_range: [0.1, 0.6] },
    });
  });

  it('leaves environment errors out and has no verdict on a harness whose checks never ran', () => {
    const env = {
      task_id: 'a',
      outcome: 'error',
      error_kind: 'environment',
      scores: { overall: 0 },
      output: {},
    } as unknown as RunRecord;
    expect(scoreSuite([env], [{ id: 'a', weight: 1 }], scoring)).toMatchObject({
      overall: null,
      outcome: 'error',
      detail: { environment_errors: 1 },
    });
  });
});
