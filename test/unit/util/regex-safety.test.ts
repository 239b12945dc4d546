import { describe, expect, it } from 'vitest';
import { compileUserRegex, translateInlineFlags } from '../../../src/util/regex-flags.ts';
import { analyzeRegex } from '../../../src/util/regex-safety.ts';

describe('analyzeRegex', () => {
  it.each([
    '(a+)+',
    '(a*)*',
    '(a|a)*',
    '(a|aa)*',
    '(\\w|\\d)+',
    '(x+x+)+y',
    '([a-z]+)*$',
    '(?:a+){2,}',
    '((ab)*)+',
    '(a+){1,100}',
  ])('flags %s', (p) => {
    const r = analyzeRegex(p, '');
    expect(r.safe).toBe(false);
    expect(r.reason).toBeTruthy();
  });

  it.each([
    '^Hello,\\s+Bob',
    '(?i)hello.*grace',
    'Alice|Bob',
    '(foo|bar)*',
    '(a|b)*',
    '\\d{4}-\\d{2}',
    '(\\s+\\w+){2}',
    '(ab)+',
    '[a-z]+',
  ])('passes %s', (p) => {
    expect(analyzeRegex(p, '')).toEqual({ safe: true });
  });

  it('honours the i flag when branches differ only in case', () => {
    expect(analyzeRegex('(a|A)*', '').safe).toBe(true);
    expect(analyzeRegex('(a|A)*', 'i').safe).toBe(false);
  });

  it('reports a pattern that does not parse as unsafe, with the reason', () => {
    expect(analyzeRegex('(', '')).toMatchObject({
      safe: false,
      reason: expect.stringContaining('does not parse'),
    });
  });
});

describe('inline flags', () => {
  it('turns leading (?i), (?s), (?m) groups into flags', () => {
    expect(translateInlineFlags('(?i)hello')).toEqual({ source: 'hello', flags: 'i' });
    expect(translateInlineFlags('(?is)(?m)x', 'g')).toEqual({ source: 'x', flags: 'gims' });
    expect(translateInlineFlags('a(?i)b')).toEqual({ source: 'a(?i)b', flags: '' });
    expect(compileUserRegex('(?i)HELLO.*grace').test('hello dear Grace')).toBe(true);
    expect(() => compileUserRegex('(')).toThrow(SyntaxError);
  });
});

describe('pattern problems inside JSONPath and JSON Schema', () => {
  it('refuses catastrophic match()/search() patterns and non-literal ones, and accepts safe ones', async () => {
    const { default: parse } = await import('jsonpath-rfc9535/parser');
    const { jsonPathRegexProblem } = await import('../../../src/util/regex-safety.ts');
    expect(jsonPathRegexProblem(parse("$[?match(@.n, '(a+)+b')]"))).toMatchObject({
      where: 'match()',
      pattern: '(a+)+b',
      reason: expect.stringMatching(/nested quantifier/),
    });
    expect(jsonPathRegexProblem(parse("$.x[?@.a == 1 && search(@.n, '(a|a)*')]"))).toMatchObject({
      where: 'search()',
    });
    expect(jsonPathRegexProblem(parse('$[?search(@.n, @.p)]'))).toMatchObject({
      reason: 'search() needs a literal pattern',
    });
    expect(jsonPathRegexProblem(parse("$[?search(@.n, 'a*a*b')]"))).toBeUndefined();
    expect(jsonPathRegexProblem(parse('$.a.b'))).toBeUndefined();
  });

  it('finds pattern and patternProperties anywhere in a schema, with their location', async () => {
    const { jsonSchemaRegexProblem, jsonSchemaHasPatterns } = await import(
      '../../../src/util/regex-safety.ts'
    );
    const schema = { properties: { list: { items: [{ pattern: '^(\\w+\\s?)+$' }] } } };
    expect(jsonSchemaRegexProblem(schema)).toMatchObject({ where: '/properties/list/items/0/pattern' });
    expect(jsonSchemaRegexProblem({ patternProperties: { '(x+x+)+y': {} } })).toMatchObject({
      where: '/patternProperties',
    });
    expect(jsonSchemaRegexProblem({ properties: { pattern: { type: 'string' } } })).toBeUndefined();
    expect(jsonSchemaHasPatterns({ properties: { pattern: { type: 'string' } } })).toBe(false);
    expect(jsonSchemaHasPatterns({ items: { pattern: 'a' } })).toBe(true);
    expect(jsonSchemaHasPatterns({ format: 'regex' })).toBe(true);
  });
});
