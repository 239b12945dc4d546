import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { type EvaluationResult, EvaluationResultSchema } from '../../../src/core/evaluation.ts';
import { builtinEvaluatorNames } from '../../../src/evaluators/catalog.ts';
import {
  builtinEvaluators,
  createEvaluator,
  defaultEvaluatorsFor,
  evaluatorsForTask,
  registerEvaluator,
  safeCheckEvaluatorRef,
} from '../../../src/evaluators/index.ts';
import { withCommonBehaviour } from '../../../src/evaluators/result.ts';
import { fixturesDir, judge, makeOutput, makeTask } from './helpers.ts';

const env = { baseDir: fixturesDir, env: {} };
const ctx = (output = makeOutput({ output: 'x' })) => ({
  task: makeTask(),
  output,
  signal: new AbortController().signal,
});

describe('evaluator registry', () => {
  it('has an entry for every catalog name, and each loads a definition with the catalog schema', async () => {
    expect(Object.keys(builtinEvaluators).sort()).toEqual([...builtinEvaluatorNames].sort());
    for (const name of builtinEvaluatorNames) {
      if (name === 'llm_rubric' || name === 'human') continue;
      const definition = await builtinEvaluators[name].load();
      expect(definition.name).toBe(name);
      expect(definition.options).toBe(builtinEvaluators[name].options);
    }
  });

  it('unknown names fail with a suggestion', async () => {
    const error = await createEvaluator({ name: 'regx', options: {}, negate: false }, env).catch(
      (e: unknown) => e,
    );
    expect(HarnessEvalError.is(error) && error.code).toBe('invalid_config');
    expect(String(error)).toContain('unknown evaluator "regx" (did you mean "regex"?)');
    await expect(createEvaluator({ name: 'zzz', options: {}, negate: false }, env)).rejects.toThrow(
      /unknown evaluator "zzz"$/,
    );
  });

  it('bad options fail with the option path and the zod message', async () => {
    const error = await createEvaluator(
      { name: 'fuzzy_match', options: { threshold: 2 }, negate: false },
      env,
    ).catch((e: unknown) => e);
    expect(HarnessEvalError.is(error) && error.code).toBe('invalid_config');
    expect(String(error)).toMatch(/evaluator "fuzzy_match": options\.threshold: .*1/);
  });

  it('llm_rubric and human are criteria, so createEvaluator explains where they go', async () => {
    await expect(createEvaluator({ name: 'human', options: {}, negate: false }, env)).rejects.toThrow(
      /graded after the trial, as a human criterion/,
    );
    await expect(createEvaluator({ name: 'llm_rubric', options: {}, negate: false }, env)).rejects.toThrow(
      /as a rubric criterion/,
    );
  });

  it('safeCheckEvaluatorRef validates without loading', () => {
    const good = safeCheckEvaluatorRef({ name: 'contains', options: { substring: 'a' }, negate: false });
    expect(good.ok && good.value).toEqual({ substring: 'a', mode: 'all', ignore_case: false });
    const bad = safeCheckEvaluatorRef({ name: 'contains', options: { mode: 'some' }, negate: false });
    expect(!bad.ok && bad.error.message).toMatch(/options\.mode/);
    const unknown = safeCheckEvaluatorRef({ name: 'contain', options: {}, negate: false });
    expect(!unknown.ok && unknown.error.message).toContain('did you mean "contains"');
  });

  it('uses the label as the evaluator name in results', async () => {
    const evaluator = await createEvaluator(
      { name: 'contains', options: { substring: 'x' }, negate: false, label: 'has-x' },
      env,
    );
    expect((await evaluator.evaluate(ctx())).evaluator).toBe('has-x');
  });

  it('registers user plugins, which get the same rules, and can remove them', async () => {
    const options = z.object({ word: z.string() }).strict();
    const remove = registerEvaluator({
      name: 'says_word',
      description: 'output says a word',
      options,
      create: (opts) => ({
        specificationVersion: 'v1',
        name: 'says_word',
        evaluate: async ({ output }) => ({
          evaluator: 'says_word',
          score: 7,
          passed: output.output === opts.word,
          explanation: 'checked',
          details: {},
          negated: false,
        }),
      }),
    });
    try {
      const r = await judge('says_word', { word: 'hi' }, { output: { output: 'hi' } });
      expect(r).toMatchObject({ passed: true, score: 1 });
      expect(
        (await judge('says_word', { word: 'hi' }, { output: { output: 'hi' }, negate: true })).score,
      ).toBe(0);
      await expect(judge('says_word', {})).rejects.toThrow(/options\.word/);
      await expect(judge('says_wrd', { word: 'x' })).rejects.toThrow(/did you mean "says_word"/);
    } finally {
      remove();
    }
    await expect(judge('says_word', { word: 'hi' })).rejects.toThrow(/unknown evaluator/);
  });

  it('refuses an instance whose specificationVersion this HarnessEval does not run, when it is created', async () => {
    const remove = registerEvaluator({
      name: 'from_the_future',
      description: '',
      options: z.object({}),
      create: () =>
        ({ specificationVersion: 'v2', name: 'from_the_future', evaluate: async () => ({}) }) as never,
    });
    try {
      await expect(
        createEvaluator({ name: 'from_the_future', options: {}, negate: false }, env),
      ).rejects.toThrow(
        'evaluator "from_the_future" has specificationVersion "v2"; this HarnessEval supports "v1"',
      );
    } finally {
      remove();
    }
  });

  it('refuses to replace a built-in', () => {
    expect(() =>
      registerEvaluator({
        name: 'regex',
        description: '',
        options: z.object({}),
        create: () => ({
          specificationVersion: 'v1',
          name: 'regex',
          evaluate: async () => ({}) as EvaluationResult,
        }),
      }),
    ).toThrow(/built-in/);
  });
});

describe('common behaviour', () => {
  const fixed = (result: Partial<EvaluationResult> | Error) =>
    withCommonBehaviour(
      {
        specificationVersion: 'v1',
        name: 'fixed',
        evaluate: async () => {
          if (result instanceof Error) throw result;
          return {
            evaluator: 'fixed',
            score: 0.3,
            passed: false,
            explanation: 'base',
            details: {},
            negated: false,
            ...result,
          };
        },
      },
      { label: 'fixed', negate: false },
    );

  it('clamps scores into 0..1 and replaces non-finite ones', async () => {
    for (const [score, want] of [
      [-1, 0],
      [3, 1],
      [Number.NaN, 0],
      [Number.POSITIVE_INFINITY, 0],
      [0.4, 0.4],
    ] as const) {
      const r = await fixed({ score }).evaluate(ctx());
      expect(r.score).toBe(want);
      expect(EvaluationResultSchema.safeParse(r).success).toBe(true);
    }
  });

  it('turns a throw into an error result', async () => {
    const r = await fixed(new Error('boom')).evaluate(ctx());
    expect(r).toMatchObject({ score: 0, passed: false, error: 'evaluator fixed failed: boom' });
  });

  it('says why an errored output scored 0', async () => {
    const r = await fixed({ score: 1, passed: true }).evaluate(
      ctx(makeOutput({ output: null, error: 'timed out after 60 s', error_kind: 'timeout' })),
    );
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.explanation).toBe('the agent output is an error (timeout): timed out after 60 s');
  });

  it('negation: score 1 - score, flipped, prefixed; errors are not flipped', async () => {
    const negated = withCommonBehaviour(
      {
        specificationVersion: 'v1',
        name: 'n',
        evaluate: async () => ({
          evaluator: 'n',
          score: 0.3,
          passed: false,
          explanation: 'base',
          details: {},
          negated: false,
        }),
      },
      { label: 'n', negate: true },
    );
    expect(await negated.evaluate(ctx())).toMatchObject({
      score: 0.7,
      passed: true,
      explanation: 'negated: base',
      negated: true,
    });
    const failing = withCommonBehaviour(
      {
        specificationVersion: 'v1',
        name: 'n',
        evaluate: async () => {
          throw new Error('x');
        },
      },
      { label: 'n', negate: true },
    );
    expect(await failing.evaluate(ctx())).toMatchObject({ score: 0, passed: false });
  });
});

describe('evaluators for a task', () => {
  it('a task with expected and no evaluators gets exact_match', () => {
    expect(defaultEvaluatorsFor(makeTask({ expected: 'x' }))).toEqual([
      { name: 'exact_match', options: {}, negate: false },
    ]);
    expect(defaultEvaluatorsFor(makeTask())).toEqual([]);
    expect(defaultEvaluatorsFor(makeTask({ expected: 'x', evaluators: [{ name: 'contains' }] }))).toEqual([]);
    expect(
      defaultEvaluatorsFor(makeTask({ expected: 'x', criteria: [{ id: 'c', command: ['npm', 'test'] }] })),
    ).toEqual([]);
  });

  it("a task's evaluators add to the suite's", () => {
    const suite = [{ name: 'latency', options: { max_seconds: 5 }, negate: false }];
    const task = makeTask({ expected: 'x', evaluators: [{ name: 'contains', options: { substring: 'x' } }] });
    expect(evaluatorsForTask(suite, task).map((r) => r.name)).toEqual(['latency', 'contains']);
    expect(evaluatorsForTask(suite, makeTask({ expected: 'x' })).map((r) => r.name)).toEqual(['latency']);
    expect(evaluatorsForTask([], makeTask({ expected: 'x' })).map((r) => r.name)).toEqual(['exact_match']);
    expect(evaluatorsForTask([], makeTask())).toEqual([]);
  });
});
