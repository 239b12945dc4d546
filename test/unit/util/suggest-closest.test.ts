import { describe, expect, it } from 'vitest';
import { closestName as didYouMean, editDistance } from '../../../src/util/suggest.ts';

describe('didYouMean', () => {
  const known = ['function', 'generic', 'http', 'cli', 'mcp'];

  it.each([
    ['htp', 'http'],
    ['HTTP', 'http'],
    ['fucntion', 'function'],
    ['clii', 'cli'],
    ['mpc', 'mcp'],
  ])('suggests %s -> %s', (typo, expected) => {
    expect(didYouMean(typo, known)).toBe(expected);
  });

  it('suggests nothing for a name far from every known one, or with nothing known', () => {
    expect(didYouMean('kubernetes', known)).toBeUndefined();
    expect(didYouMean('http', [])).toBeUndefined();
  });

  it('computes edit distances', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});
