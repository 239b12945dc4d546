import { describe, expect, it } from 'vitest';
import { errored, judge } from './helpers.ts';

describe('exact_match', () => {
  it('passes when the trimmed output equals the expected text', async () => {
    const r = await judge(
      'exact_match',
      {},
      { task: { expected: 'Hello, Ada!' }, output: { output: '  Hello, Ada!\n' } },
    );
    expect(r).toMatchObject({ evaluator: 'exact_match', score: 1, passed: true });
  });

  it('fails on different text and shows both', async () => {
    const r = await judge(
      'exact_match',
      {},
      { task: { expected: 'Hello, Ada!' }, output: { output: 'Hello, Bob!' } },
    );
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.explanation).toContain('Hello, Bob!');
  });

  it('respects trim: false and ignore_case', async () => {
    expect(
      (await judge('exact_match', { trim: false }, { task: { expected: 'a' }, output: { output: ' a' } }))
        .passed,
    ).toBe(false);
    expect(
      (await judge('exact_match', {}, { task: { expected: 'ABC' }, output: { output: 'abc' } })).passed,
    ).toBe(false);
    expect(
      (
        await judge(
          'exact_match',
          { ignore_case: true },
          { task: { expected: 'ABC' }, output: { output: 'abc' } },
        )
      ).passed,
    ).toBe(true);
  });

  it('prefers options.expected over the task', async () => {
    const r = await judge(
      'exact_match',
      { expected: 'b' },
      { task: { expected: 'a' }, output: { output: 'b' } },
    );
    expect(r.passed).toBe(true);
  });

  it('passes with "no expected output" when nothing is expected', async () => {
    const r = await judge('exact_match', {}, { output: { output: 'anything' } });
    expect(r).toMatchObject({ passed: true, score: 1, explanation: 'no expected output' });
  });

  it('compares data by deep equality (structured, object output, or JSON text)', async () => {
    const expected = { name: 'Ada', tags: ['x', 'y'] };
    expect(
      (
        await judge(
          'exact_match',
          {},
          { task: { expected }, output: { output: 'ok', structured: { tags: ['x', 'y'], name: 'Ada' } } },
        )
      ).passed,
    ).toBe(true);
    expect(
      (
        await judge(
          'exact_match',
          {},
          { task: { expected }, output: { output: { name: 'Ada', tags: ['x', 'y'] } } },
        )
      ).passed,
    ).toBe(true);
    expect(
      (
        await judge(
          'exact_match',
          {},
          { task: { expected }, output: { output: '{"name":"Ada","tags":["x","y"]}' } },
        )
      ).passed,
    ).toBe(true);
    expect(
      (
        await judge(
          'exact_match',
          {},
          { task: { expected }, output: { output: { name: 'Ada', tags: ['y', 'x'] } } },
        )
      ).passed,
    ).toBe(false);
    expect(
      (await judge('exact_match', {}, { task: { expected: 42 }, output: { output: '42' } })).passed,
    ).toBe(true);
    const notJson = await judge('exact_match', {}, { task: { expected }, output: { output: 'not json' } });
    expect(notJson.passed).toBe(false);
    expect(notJson.explanation).toContain('not JSON');
  });

  it('handles empty strings and unicode (composed and decomposed accents are equal)', async () => {
    expect(
      (await judge('exact_match', {}, { task: { expected: '' }, output: { output: '   ' } })).passed,
    ).toBe(true);
    expect(
      (await judge('exact_match', {}, { task: { expected: 'café 👋' }, output: { output: 'cafe\u0301 👋' } }))
        .passed,
    ).toBe(true);
    expect(
      (
        await judge(
          'exact_match',
          { ignore_case: true },
          { task: { expected: 'ÉLAN' }, output: { output: 'élan' } },
        )
      ).passed,
    ).toBe(true);
  });

  it('scores an errored output 0 and says why, even when negated', async () => {
    const r = await judge('exact_match', {}, { task: { expected: '' }, output: errored });
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.explanation).toContain('connection reset');
    const n = await judge('exact_match', {}, { task: { expected: '' }, output: errored, negate: true });
    expect(n).toMatchObject({ score: 0, passed: false, negated: true });
  });

  it('negates: flips passed, score becomes 1 - score, explanation prefixed', async () => {
    const r = await judge(
      'exact_match',
      {},
      { task: { expected: 'a' }, output: { output: 'b' }, negate: true },
    );
    expect(r).toMatchObject({ score: 1, passed: true, negated: true });
    expect(r.explanation.startsWith('negated: ')).toBe(true);
  });
});
