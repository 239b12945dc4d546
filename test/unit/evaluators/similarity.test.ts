import { describe, expect, it } from 'vitest';
import {
  boundedLevenshtein,
  codePoints,
  levenshteinDistance,
} from '../../../src/evaluators/edit-distance.ts';
import { diceSimilarity } from '../../../src/evaluators/fuzzy-match.ts';
import { errored, huge, judge } from './helpers.ts';

describe('fuzzy_match (Sørensen–Dice on bigrams)', () => {
  it('computes the coefficient', () => {
    const dice = (a: string, b: string) => diceSimilarity(codePoints(a), codePoints(b));
    expect(dice('night', 'nacht')).toBeCloseTo(0.25);
    expect(dice('abc', 'abc')).toBe(1);
    expect(dice('', '')).toBe(1);
    expect(dice('a', 'b')).toBe(0);
    expect(dice('a', 'a')).toBe(1);
    expect(dice('aaaa', 'aa')).toBeCloseTo(0.5);
    expect(dice('👋🎉', '👋🎉')).toBe(1);
  });

  it('passes above the threshold and fails below', async () => {
    const pass = await judge(
      'fuzzy_match',
      {},
      { task: { expected: 'Hello, Ada Lovelace!' }, output: { output: 'hello ada lovelace' } },
    );
    expect(pass.passed).toBe(true);
    expect(pass.score).toBeGreaterThan(0.8);
    const fail = await judge(
      'fuzzy_match',
      { threshold: 0.9 },
      { task: { expected: 'Hello, Ada!' }, output: { output: 'Goodbye, Bob.' } },
    );
    expect(fail.passed).toBe(false);
    expect(fail.explanation).toContain('threshold 0.9');
  });

  it('edge cases: no expected, empty, unicode, huge', async () => {
    expect((await judge('fuzzy_match', {}, { output: { output: 'x' } })).explanation).toBe(
      'no expected output',
    );
    expect((await judge('fuzzy_match', {}, { task: { expected: '' }, output: { output: '' } })).passed).toBe(
      true,
    );
    expect(
      (await judge('fuzzy_match', { expected: 'héllo wörld 👋' }, { output: { output: 'HÉLLO WÖRLD 👋' } }))
        .score,
    ).toBe(1);
    expect((await judge('fuzzy_match', { expected: 'short' }, { output: { output: huge } })).passed).toBe(
      false,
    );
  });

  it('errored output scores 0; negate flips', async () => {
    expect(await judge('fuzzy_match', { expected: '' }, { output: errored })).toMatchObject({
      score: 0,
      passed: false,
    });
    const n = await judge(
      'fuzzy_match',
      { expected: 'abcdef' },
      { output: { output: 'abcdef' }, negate: true },
    );
    expect(n).toMatchObject({ score: 0, passed: false });
  });
});

describe('levenshtein', () => {
  it('splits text into code points like the string iterator, lone surrogates included', () => {
    for (const text of ['', 'abc', '👋a🎉', 'a\ud800b', '\udc00x', 'x\ud83d']) {
      expect(Array.from(codePoints(text))).toEqual(Array.from(text).map((c) => c.codePointAt(0)));
    }
  });

  it('computes distances on code points', () => {
    expect(levenshteinDistance(codePoints('kitten'), codePoints('sitting'))).toBe(3);
    expect(levenshteinDistance(codePoints(''), codePoints('abc'))).toBe(3);
    expect(levenshteinDistance(codePoints('👋a'), codePoints('👋b'))).toBe(1);
    expect(boundedLevenshtein(codePoints('kitten'), codePoints('sitting'), 3)).toBe(3);
    expect(boundedLevenshtein(codePoints('kitten'), codePoints('sitting'), 2)).toBeUndefined();
  });

  it('the banded distance agrees with the full one when within the bound', () => {
    const words = ['', 'a', 'ab', 'ba', 'abc', 'acb', 'aab', 'bbaa', 'abab', 'baba', 'aaaa', 'abcabc'];
    for (const x of words) {
      for (const y of words) {
        const d = levenshteinDistance(codePoints(x), codePoints(y));
        for (const k of [0, 1, 2, 3, 6]) {
          expect(boundedLevenshtein(codePoints(x), codePoints(y), k)).toBe(d <= k ? d : undefined);
        }
      }
    }
  });

  it('passes within max_distance and fails beyond', async () => {
    const ok = await judge(
      'levenshtein',
      { max_distance: 3 },
      { task: { expected: 'sitting' }, output: { output: 'kitten' } },
    );
    expect(ok).toMatchObject({ passed: true });
    expect(ok.details['distance']).toBe(3);
    const no = await judge(
      'levenshtein',
      { max_distance: 2 },
      { task: { expected: 'sitting' }, output: { output: 'kitten' } },
    );
    expect(no.passed).toBe(false);
  });

  it('uses a normalised threshold (default 0.8)', async () => {
    const r = await judge(
      'levenshtein',
      {},
      { task: { expected: 'Hello, Ada!' }, output: { output: 'Hello, Ada.' } },
    );
    expect(r.passed).toBe(true);
    expect(r.score).toBeCloseTo(1 - 1 / 11);
    expect(
      (
        await judge(
          'levenshtein',
          { threshold: 0.95 },
          { task: { expected: 'Hello, Ada!' }, output: { output: 'Hello, Ada.' } },
        )
      ).passed,
    ).toBe(false);
  });

  it('edge cases: no expected, both empty, unicode', async () => {
    expect((await judge('levenshtein', {}, { output: { output: 'x' } })).explanation).toBe(
      'no expected output',
    );
    expect((await judge('levenshtein', { expected: '' }, { output: { output: '' } })).score).toBe(1);
    expect(
      (
        await judge(
          'levenshtein',
          { expected: 'café', max_distance: 0 },
          { output: { output: 'cafe\u0301' } },
        )
      ).passed,
    ).toBe(true);
  });

  it('does not hang on 10 MB outputs: equal texts, banded with max_distance, refused otherwise', async () => {
    expect(
      (await judge('levenshtein', { expected: huge, max_distance: 0 }, { output: { output: huge } })).passed,
    ).toBe(true);
    const banded = await judge(
      'levenshtein',
      { expected: `${huge}ab`, max_distance: 3 },
      { output: { output: `${huge}ba` } },
    );
    expect(banded).toMatchObject({ passed: true });
    expect(banded.details['distance']).toBe(2);
    const far = await judge(
      'levenshtein',
      { expected: 'short', max_distance: 3 },
      { output: { output: huge } },
    );
    expect(far.passed).toBe(false);
    const refused = await judge(
      'levenshtein',
      { expected: 'y'.repeat(20_000) },
      { output: { output: huge } },
    );
    expect(refused).toMatchObject({ score: 0, passed: false });
    expect(refused.error).toContain('too long');
  });

  it('errored output scores 0; negate flips', async () => {
    expect(await judge('levenshtein', { expected: 'a' }, { output: errored })).toMatchObject({
      score: 0,
      passed: false,
    });
    expect(
      await judge(
        'levenshtein',
        { expected: 'abc', max_distance: 0 },
        { output: { output: 'xyz' }, negate: true },
      ),
    ).toMatchObject({ score: 1, passed: true });
  });
});
