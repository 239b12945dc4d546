import { describe, expect, it } from 'vitest';
import { formatPath } from '../../../src/formats/issues.ts';
import { closestName as closest, editDistance, unknownNameMessage } from '../../../src/util/suggest.ts';

describe('suggestions', () => {
  it('uses Damerau distance (a transposition is one edit)', () => {
    expect(editDistance('regex', 'regxe')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('suggests only close names', () => {
    expect(closest('regx', ['regex', 'contains'])).toBe('regex');
    expect(closest('completely_different', ['regex', 'contains'])).toBeUndefined();
    expect(unknownNameMessage('metric', 'zzz', ['latency'])).toBe('unknown metric "zzz"');
  });

  it('formats field paths', () => {
    expect(formatPath(['tests', 0, 'evaluators', 1, 'options', 'pattern'])).toBe(
      'tests[0].evaluators[1].options.pattern',
    );
    expect(formatPath([])).toBe('');
  });
});
