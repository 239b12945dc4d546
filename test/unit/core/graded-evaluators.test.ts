import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { DEFAULT_REVIEW_RUBRIC, gradedEvaluatorsAsCriteria } from '../../../src/core/graded-evaluators.ts';
import type { Rubric } from '../../../src/core/rubric.ts';
import { type Suite, SuiteSchema } from '../../../src/core/suite.ts';

const tone: Rubric = {
  id: 'tone',
  source: '/suite/rubric.yaml',
  dimensions: [
    { name: 'warmth', weight: 2, levels: { 1: 'a', 2: 'b', 3: 'c', 4: 'd' }, examples: [] },
    { name: 'brevity', weight: 1, levels: { 1: 'a', 2: 'b', 3: 'c', 4: 'd' }, examples: [] },
  ],
};

type SuiteDraft = Omit<z.input<typeof SuiteSchema>, 'schema_version' | 'id'>;

function suite(draft: SuiteDraft): Suite {
  return SuiteSchema.parse({ schema_version: 1, id: 's', ...draft });
}

const judge = { provider: 'openai-compatible', model: 'judge-x', base_url: 'http://127.0.0.1:1/v1' };

describe('gradedEvaluatorsAsCriteria', () => {
  it('turns a suite-level llm_rubric into a rubric criterion of every task, and adopts its judge', () => {
    const converted = gradedEvaluatorsAsCriteria(
      suite({
        rubrics: [tone],
        evaluators: [
          { name: 'contains', options: { substring: 'x' } },
          { name: 'llm_rubric', options: { rubric: 'tone', dimensions: ['warmth'], judge, samples: 3 } },
        ],
        tasks: [
          { id: 'a', input: 'hi' },
          { id: 'b', input: 'ho', criteria: [{ id: 'llm_rubric' }] },
        ],
      }),
    );
    expect(converted.evaluators.map((e) => e.name)).toEqual(['contains']);
    expect(
      converted.tasks.map((t) => t.criteria.map((c) => [c.id, c.verification, c.rubric_dimensions])),
    ).toEqual([
      [['llm_rubric', 'rubric', ['warmth']]],
      [
        ['llm_rubric', 'automated', undefined],
        ['llm_rubric-2', 'rubric', ['warmth']],
      ],
    ]);
    expect(converted.tasks.map((t) => t.rubric)).toEqual(['/suite/rubric.yaml', '/suite/rubric.yaml']);
    expect(converted.judge).toMatchObject({ model: 'judge-x', samples: 3, allow_self_judge: false });
    expect(gradedEvaluatorsAsCriteria(converted)).toEqual(converted); // idempotent
  });

  it('a human evaluator is a human criterion; with no rubric anywhere it is graded on "meets instructions"', () => {
    const converted = gradedEvaluatorsAsCriteria(
      suite({
        tasks: [
          {
            id: 'a',
            input: 'hi',
            evaluators: [{ name: 'human', label: 'friendly', options: { instructions: 'is it friendly?' } }],
          },
          { id: 'b', input: 'no graded evaluator' },
        ],
      }),
    );
    expect(converted.tasks[0]?.criteria).toMatchObject([
      { id: 'friendly', verification: 'human', description: 'is it friendly?' },
    ]);
    expect(converted.tasks[0]?.rubric).toBe(DEFAULT_REVIEW_RUBRIC.id);
    expect(converted.tasks[1]).toMatchObject({ criteria: [], evaluators: [] });
    expect(converted.tasks[1]?.rubric).toBeUndefined();
    expect(converted.rubrics).toEqual([DEFAULT_REVIEW_RUBRIC]);
  });

  it('a criterion checked by llm_rubric becomes a rubric criterion with the dimensions it names', () => {
    const converted = gradedEvaluatorsAsCriteria(
      suite({
        rubrics: [tone],
        tasks: [
          {
            id: 'a',
            input: 'hi',
            criteria: [
              { id: 'ac-1', evaluator: { name: 'llm_rubric', options: { dimensions: ['brevity'] } } },
            ],
          },
        ],
      }),
    );
    const [criterion] = converted.tasks[0]?.criteria ?? [];
    expect(criterion).toMatchObject({ id: 'ac-1', verification: 'rubric', rubric_dimensions: ['brevity'] });
    expect(criterion?.evaluator).toBeUndefined();
  });

  it('refuses an unknown rubric, two rubrics on one task, two judges and negate', () => {
    const attempt = (draft: SuiteDraft) => {
      try {
        gradedEvaluatorsAsCriteria(suite(draft));
        return 'accepted';
      } catch (error) {
        return HarnessEvalError.is(error) && error.code === 'invalid_config' ? error.message : String(error);
      }
    };
    const llm = (options: Record<string, unknown>, negate = false) => ({
      name: 'llm_rubric',
      options,
      negate,
    });
    expect(attempt({ tasks: [{ id: 'a', input: 'x', evaluators: [llm({ rubric: 'nope' })] }] })).toMatch(
      /no rubric "nope"/,
    );
    const other: Rubric = { ...tone, id: 'other', source: '/other.yaml' };
    expect(
      attempt({
        rubrics: [tone, other],
        tasks: [{ id: 'a', input: 'x', rubric: 'tone', evaluators: [llm({ rubric: 'other' })] }],
      }),
    ).toMatch(/names rubric "other", but the task is graded on "tone"/);
    expect(
      attempt({
        rubrics: [tone],
        judge: { ...judge, provider: 'openai-compatible', samples: 1, allow_self_judge: false },
        tasks: [{ id: 'a', input: 'x', evaluators: [llm({ judge: { ...judge, model: 'other' } })] }],
      }),
    ).toMatch(/two different judges/);
    expect(
      attempt({ rubrics: [tone], tasks: [{ id: 'a', input: 'x', evaluators: [llm({}, true)] }] }),
    ).toMatch(/cannot be negated/);
  });
});
