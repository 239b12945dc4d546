import { describe, expect, it } from 'vitest';
import { analyzeRegex } from '../../../src/util/regex-safety.ts';

describe('analyzeRegex', () => {
  it.each([
    '(a+)+',
    '(a*)*',
    '(\\w+\\s?)*',
    '(?:x+y?)+$',
    '(a|a)*',
    '(\\d|[0-9a-f])+',
    '(a|b?)+',
    '(x+){2,}',
    '([a-z]+)*@',
  ])('refuses %s', (pattern) => {
    const verdict = analyzeRegex(pattern, '');
    expect(verdict.safe).toBe(false);
    expect(verdict.reason).toBeTruthy();
  });

  it.each([
    '^Hello, \\w+!$',
    '(foo|bar)*',
    '\\d+\\.\\d+',
    '(\\d+\\.){3}\\d+',
    '(?<name>[A-Z][a-z]+)',
    '[a-z]+(?=x)',
    'a{2,5}',
    '(ab)+',
    // `a` and `ab` do not commute, so every string splits into them at most one way: linear.
    '(a|ab)*',
    '^(?:[^"\\\\]|\\\\.)*$',
  ])('accepts %s', (pattern) => {
    expect(analyzeRegex(pattern, '')).toEqual({ safe: true });
  });

  it('case-insensitive overlap counts: (a|A)* is refused only with i', () => {
    expect(analyzeRegex('(a|A)*', '').safe).toBe(true);
    expect(analyzeRegex('(a|A)*', 'i').safe).toBe(false);
  });

  it('reports invalid patterns', () => {
    const verdict = analyzeRegex('(unclosed', '');
    expect(verdict.safe).toBe(false);
    expect(verdict.reason).toMatch(/invalid/);
  });
});
