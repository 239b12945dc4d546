import { describe, expect, it } from 'vitest';
import { didYouMean, suggest } from '../../../src/util/suggest.ts';

const names = ['exact_match', 'contains', 'icontains', 'regex', 'jsonpath', 'json_schema', 'levenshtein'];

describe('suggest', () => {
  it('finds typos within distance 2, transpositions included', () => {
    expect(suggest('regx', names)).toEqual(['regex']);
    expect(suggest('rgeex', names)).toEqual(['regex']);
    expect(suggest('levenstein', names)).toEqual(['levenshtein']);
    expect(suggest('CONTAINS', names)[0]).toBe('contains');
  });

  it('finds prefixes', () => {
    expect(suggest('json', names)).toEqual(['json_schema', 'jsonpath']);
    expect(suggest('exact', names)).toEqual(['exact_match']);
  });

  it('returns nothing for unrelated or empty names', () => {
    expect(suggest('banana', names)).toEqual([]);
    expect(suggest('', names)).toEqual([]);
    expect(didYouMean('banana', names)).toBe('');
    expect(didYouMean('regx', names)).toBe(' (did you mean "regex"?)');
  });
});
