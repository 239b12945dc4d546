import { describe, expect, it } from 'vitest';
import { errored, huge, judge } from './helpers.ts';

describe('contains', () => {
  it('passes with the seed-000 substring option', async () => {
    const r = await judge(
      'contains',
      { substring: 'Refund of $49.99 processed' },
      { output: { output: 'OK. Refund of $49.99 processed today.' } },
    );
    expect(r).toMatchObject({ score: 1, passed: true });
  });

  it('fails when the substring is missing (case matters by default)', async () => {
    const r = await judge('contains', { substring: 'refund' }, { output: { output: 'Refund issued' } });
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.explanation).toContain('does not contain');
  });

  it('defaults to the task expected text; without one it cannot judge', async () => {
    expect(
      (await judge('contains', {}, { task: { expected: 'Ada' }, output: { output: 'Hello, Ada!' } })).passed,
    ).toBe(true);
    const r = await judge('contains', {}, { output: { output: 'x' } });
    expect(r.passed).toBe(false);
    expect(r.error).toContain('substring');
  });

  it('mode all scores the fraction found; mode any needs one', async () => {
    const all = await judge(
      'contains',
      { substrings: ['a', 'b', 'z', 'q'] },
      { output: { output: 'a b c' } },
    );
    expect(all).toMatchObject({ score: 0.5, passed: false });
    expect(all.details['missing']).toEqual(['z', 'q']);
    const any = await judge(
      'contains',
      { substrings: ['z', 'b'], mode: 'any' },
      { output: { output: 'a b c' } },
    );
    expect(any).toMatchObject({ score: 1, passed: true });
    const none = await judge(
      'contains',
      { substrings: ['z', 'q'], mode: 'any' },
      { output: { output: 'a b c' } },
    );
    expect(none).toMatchObject({ score: 0, passed: false });
  });

  it('handles empty strings, unicode and object outputs', async () => {
    expect((await judge('contains', { substring: '' }, { output: { output: '' } })).passed).toBe(true);
    expect(
      (await judge('contains', { substring: 'café' }, { output: { output: 'un cafe\u0301 ☕' } })).passed,
    ).toBe(true);
    expect(
      (await judge('contains', { substring: '"name":"Ada"' }, { output: { output: { name: 'Ada' } } }))
        .passed,
    ).toBe(true);
  });

  it('scans a 10 MB output', async () => {
    expect(
      (await judge('contains', { substring: 'needle' }, { output: { output: `${huge}needle` } })).passed,
    ).toBe(true);
    expect((await judge('icontains', { substring: 'NEEDLE' }, { output: { output: huge } })).passed).toBe(
      false,
    );
  });

  it('errored output scores 0; negate flips', async () => {
    expect(await judge('contains', { substring: '' }, { output: errored })).toMatchObject({
      score: 0,
      passed: false,
    });
    expect(
      await judge('contains', { substring: 'x' }, { output: { output: 'abc' }, negate: true }),
    ).toMatchObject({ score: 1, passed: true });
  });

  it('rejects unknown options', async () => {
    await expect(judge('contains', { substr: 'x' })).rejects.toThrow(/options/);
  });
});

describe('icontains', () => {
  it('ignores case, including non-ASCII', async () => {
    expect(
      (await judge('icontains', { substring: 'REFUND' }, { output: { output: 'refund issued' } })).passed,
    ).toBe(true);
    expect((await judge('icontains', { substring: 'ÉTÉ' }, { output: { output: "l'été" } })).passed).toBe(
      true,
    );
    expect((await judge('icontains', { substring: 'x' }, { output: { output: 'abc' } })).passed).toBe(false);
  });
});
