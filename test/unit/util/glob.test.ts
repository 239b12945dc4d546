import { describe, expect, it } from 'vitest';
import { compileGlob, globToRegExp } from '../../../src/util/glob.ts';

const cases: Array<[string, string, boolean]> = [
  ['hello-*', 'hello-world', true],
  ['hello-*', 'hello-', true],
  ['hello-*', 'say-hello-world', false],
  ['*', '', true],
  ['case-?', 'case-1', true],
  ['case-?', 'case-12', false],
  ['case-[abc]', 'case-b', true],
  ['case-[abc]', 'case-d', false],
  ['case-[0-9][0-9]', 'case-42', true],
  ['case-[!0-9]', 'case-4', false],
  ['case-[!0-9]', 'case-x', true],
  ['a.b', 'axb', false],
  ['a.b', 'a.b', true],
  ['*mid*', 'has-mid-dle', true],
  ['\\*', '*', true],
  ['\\*', 'x', false],
  ['[unclosed', '[unclosed', true],
  ['é*', 'été', true],
];

describe('compileGlob and globToRegExp', () => {
  it.each(cases)('%s on %s is %s', (glob, text, expected) => {
    expect(compileGlob(glob)(text)).toBe(expected);
    expect(globToRegExp(glob).test(text)).toBe(expected);
  });

  it('handles the backtracking killer pattern on long input with the state-set matcher', () => {
    const glob = `${'*a'.repeat(20)}*b`;
    const text = 'a'.repeat(5000);
    expect(compileGlob(glob)(text)).toBe(false);
    expect(compileGlob(glob)(`${text}b`)).toBe(true);
  });
});
