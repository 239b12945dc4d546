import { describe, expect, it } from 'vitest';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { REGEX_INPUT_LIMIT } from '../../../src/evaluators/regex.ts';
import { errored, huge, judge } from './helpers.ts';

describe('regex', () => {
  it('passes on a match and reports the match and groups', async () => {
    const r = await judge(
      'regex',
      { pattern: '^Hello, (?<name>\\w+)!$' },
      { output: { output: 'Hello, Ada!' } },
    );
    expect(r).toMatchObject({ score: 1, passed: true });
    expect(r.details['groups']).toEqual({ name: 'Ada', '1': 'Ada' });
  });

  it('fails without a match', async () => {
    const r = await judge('regex', { pattern: '^Hello' }, { output: { output: 'Goodbye' } });
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.explanation).toContain('does not match');
  });

  it('turns a leading (?i) / (?s) / (?m) / (?im) into flags', async () => {
    expect((await judge('regex', { pattern: '(?i)^hello' }, { output: { output: 'HELLO' } })).passed).toBe(
      true,
    );
    expect((await judge('regex', { pattern: '(?s)a.b' }, { output: { output: 'a\nb' } })).passed).toBe(true);
    expect((await judge('regex', { pattern: 'a.b' }, { output: { output: 'a\nb' } })).passed).toBe(false);
    expect(
      (await judge('regex', { pattern: '(?im)^world$' }, { output: { output: 'hello\nWORLD' } })).passed,
    ).toBe(true);
    expect(
      (await judge('regex', { pattern: '^world$', flags: 'm' }, { output: { output: 'hello\nworld' } }))
        .passed,
    ).toBe(true);
  });

  it('uses the task expected as the pattern when none is given', async () => {
    expect(
      (await judge('regex', {}, { task: { expected: 'H.llo' }, output: { output: 'Hallo' } })).passed,
    ).toBe(true);
    const none = await judge('regex', {}, { output: { output: 'x' } });
    expect(none.error).toContain('pattern');
    const unsafe = await judge('regex', {}, { task: { expected: '(a+)+$' }, output: { output: 'aaa' } });
    expect(unsafe).toMatchObject({ passed: false, score: 0 });
    expect(unsafe.error).toContain('refused');
  });

  it('matches the structured output as JSON with target: structured', async () => {
    const r = await judge(
      'regex',
      { pattern: '"count":\\s*3', target: 'structured' },
      { output: { output: 'x', structured: { count: 3 } } },
    );
    expect(r.passed).toBe(true);
  });

  it('refuses catastrophic and invalid patterns at create() with invalid_config', async () => {
    for (const pattern of ['(a+)+$', '(a|b?)+c', '(\\w+\\s?)*$']) {
      const error = await judge('regex', { pattern }).catch((e: unknown) => e);
      expect(HarnessEvalError.is(error) && error.code).toBe('invalid_config');
      expect(String(error)).toMatch(/refused/);
    }
    await expect(judge('regex', { pattern: '(' })).rejects.toThrow(/invalid pattern/);
    await expect(judge('regex', { pattern: 'a', flags: 'g' })).rejects.toThrow(/flags/);
  });

  it('handles unicode and empty output', async () => {
    expect(
      (
        await judge(
          'regex',
          { pattern: '^\\p{Emoji_Presentation}+$', flags: 'u' },
          { output: { output: '👋🎉' } },
        )
      ).passed,
    ).toBe(true);
    expect((await judge('regex', { pattern: '^$' }, { output: { output: '' } })).passed).toBe(true);
  });

  it('caps a 10 MB output at 1 MiB and says so', async () => {
    const r = await judge('regex', { pattern: 'needle' }, { output: { output: `${huge}needle` } });
    expect(r.passed).toBe(false);
    expect(r.details['truncated']).toBe(true);
    expect(r.explanation).toContain(`first ${REGEX_INPUT_LIMIT}`);
    expect((await judge('regex', { pattern: '^x+$' }, { output: { output: huge } })).passed).toBe(true);
  });

  it('stops a polynomial pattern that the static check lets through, instead of hanging', async () => {
    const r = await judge('regex', { pattern: 'a*a*a*b' }, { output: { output: 'a'.repeat(200_000) } });
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.error).toMatch(/was stopped/);
    // The worker is replaced and the next match works.
    expect((await judge('regex', { pattern: 'ok' }, { output: { output: 'ok' } })).passed).toBe(true);
  });

  it('errored output scores 0; negate flips a verdict', async () => {
    expect(await judge('regex', { pattern: '.*' }, { output: errored })).toMatchObject({
      score: 0,
      passed: false,
    });
    const n = await judge('regex', { pattern: 'error' }, { output: { output: 'all fine' }, negate: true });
    expect(n).toMatchObject({ score: 1, passed: true });
    expect(n.explanation).toMatch(/^negated: /);
  });
});
