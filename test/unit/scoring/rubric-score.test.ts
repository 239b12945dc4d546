import { describe, expect, it } from 'vitest';
import { agentOutput } from '../../../src/core/agent-output.ts';
import type { Grade } from '../../../src/core/evaluation.ts';
import { RubricSchema } from '../../../src/core/rubric.ts';
import { RunRecordSchema } from '../../../src/core/run-record.ts';
import { ScoringSchema, SuiteSchema } from '../../../src/core/suite.ts';
import { TaskSchema } from '../../../src/core/task.ts';
import { RubricGrader } from '../../../src/runner/rubric-grader.ts';
import { applyGrades } from '../../../src/scoring/regrade.ts';
import {
  awaitsGrade,
  criterionDimensions,
  gradedCriterion,
  humanGrade,
  isRubricLevel,
  rubricLevelScore,
  weightedDimensionScore,
} from '../../../src/scoring/rubric-score.ts';

const levels = { 1: 'bad', 2: 'weak', 3: 'good', 4: 'great' };
const rubric = RubricSchema.parse({
  id: 'r',
  dimensions: [
    { name: 'code_quality', weight: 3, levels },
    { name: 'tests', weight: 1, levels },
  ],
});
const grade = (dimension: string, level: number, grader = 'ann'): Grade =>
  humanGrade(dimension, level as 1, grader, '2026-12-01T00:00:00Z');

describe('rubric scoring rules', () => {
  it('scores levels 1..4 as 0, 1/3, 2/3, 1 and knows what a level is', () => {
    expect([1, 2, 3, 4].map(rubricLevelScore)).toEqual([0, 1 / 3, 2 / 3, 1]);
    expect([0, 1, 4, 5, 2.5, Number.NaN].map(isRubricLevel)).toEqual([
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('grades the dimensions a criterion names, else all of its rubric', () => {
    expect(criterionDimensions(rubric, { rubric_dimensions: ['tests'] }).map((d) => d.name)).toEqual([
      'tests',
    ]);
    expect(criterionDimensions(rubric, {}).map((d) => d.name)).toEqual(['code_quality', 'tests']);
    expect(criterionDimensions(undefined, {})).toEqual([]);
  });

  it('weighs dimensions by the rubric; one the rubric does not name weighs 1; no weight is no score', () => {
    // (3 * 1 + 1 * 0) / 4
    expect(
      weightedDimensionScore([grade('code_quality', 4), grade('tests', 1)], { code_quality: 3, tests: 1 }),
    ).toBe(0.75);
    // A grade kept from an older rubric (`style`) counts at weight 1: (3 * 1 + 1 * 0) / 4.
    expect(weightedDimensionScore([grade('code_quality', 4), grade('style', 1)], { code_quality: 3 })).toBe(
      0.75,
    );
    // No rubric found: the plain mean, not 0.
    expect(weightedDimensionScore([grade('code_quality', 4), grade('tests', 3)], {})).toBeCloseTo(5 / 6, 12);
    expect(weightedDimensionScore([grade('tests', 4)], { tests: 0 })).toBeUndefined();
  });

  it('a graded criterion passes at the threshold and says who graded what', () => {
    const at = gradedCriterion(
      { id: 'c', verification: 'human' },
      [grade('tests', 4), grade('code_quality', 3)],
      {},
      0.8,
    );
    expect(at).toMatchObject({
      status: 'passed',
      explanation: 'tests: level 4 (ann), code_quality: level 3 (ann)',
    });
    expect(gradedCriterion({ id: 'c', verification: 'rubric' }, [grade('tests', 1)], {}, 0.01).status).toBe(
      'failed',
    );
    expect(
      gradedCriterion({ id: 'c', verification: 'rubric' }, [grade('tests', 4)], { tests: 0 }, 0.5).score,
    ).toBe(0);
  });

  it('only pending rubric and human criteria wait for a grade', () => {
    expect(awaitsGrade({ status: 'pending', verification: 'rubric' })).toBe(true);
    expect(awaitsGrade({ status: 'pending', verification: 'human' })).toBe(true);
    expect(awaitsGrade({ status: 'pending', verification: 'automated' })).toBe(false);
    expect(awaitsGrade({ status: 'passed', verification: 'rubric' })).toBe(false);
  });
});

describe('the judge and a regrade score a criterion alike', () => {
  // These two used to weigh dimensions separately (the judge by the graded dimensions, a regrade
  // by name with a fallback of 1), so the same grades could give a criterion two scores.
  const task = TaskSchema.parse({
    id: 't',
    input: 'do it',
    criteria: [{ id: 'q', description: 'quality', verification: 'rubric' }],
  });
  const suite = SuiteSchema.parse({ id: 's', tasks: [task], rubrics: [rubric] });
  const answers: Record<string, number> = { code_quality: 3, tests: 2 };

  it('gives the same score and status for the same levels', async () => {
    const complete = async ({ system, prompt }: { system: string; prompt: string }) => {
      const dimension = `${system}${prompt}`.includes('dimension "tests"') ? 'tests' : 'code_quality';
      return JSON.stringify({ rationale: 'seen', level: answers[dimension] });
    };
    const grader = await RubricGrader.create(
      suite,
      { provider: 'openai', model: 'judge-model', samples: 1, allow_self_judge: false },
      {},
      complete,
    );
    const judged = await grader.grade(task, task.criteria[0]!, agentOutput({ output: 'done' }), {
      producerModels: [],
      passThreshold: 0.75,
    });
    expect(judged.grades.map((g) => [g.dimension, g.level])).toEqual([
      ['code_quality', 3],
      ['tests', 2],
    ]);
    const record = RunRecordSchema.parse({
      run_id: 'e:t#0',
      task_id: 't',
      harness_config: { name: 'h', version: '1' },
      timestamp: '2026-12-01T00:00:00Z',
      duration_seconds: 1,
      outcome: 'pending',
      output: agentOutput({ output: 'done' }),
      criteria: [{ id: 'q', verification: 'rubric', status: 'pending', score: null }],
    });
    const regraded = applyGrades(
      record,
      'q',
      [grade('code_quality', 3), grade('tests', 2)],
      ScoringSchema.parse({}),
      { code_quality: 3, tests: 1 },
    ).criteria[0]!;
    // (3 * 2/3 + 1 * 1/3) / 4 = 7/12
    expect(judged.score).toBeCloseTo(7 / 12, 12);
    expect(regraded.score).toBeCloseTo(judged.score!, 12);
    expect(regraded.status).toBe(judged.status);
  });
});
