import { describe, expect, it } from 'vitest';
import { splitCommand } from '../../../src/formats/command-line.ts';
import { formatPath } from '../../../src/formats/issues.ts';
import { closestName as closest, editDistance, unknownNameMessage } from '../../../src/util/suggest.ts';

describe('splitCommand', () => {
  it.each([
    ['npm test', ['npm', 'test']],
    ['  npx vitest   run ', ['npx', 'vitest', 'run']],
    [`node -e "console.log('a b')"`, ['node', '-e', "console.log('a b')"]],
    [`echo 'a "b" c' d`, ['echo', 'a "b" c', 'd']],
    ['a\\ b c', ['a b', 'c']],
    ['ls | wc -l && rm -rf /', ['ls', '|', 'wc', '-l', '&&', 'rm', '-rf', '/']],
    ['', []],
    ['say ""', ['say', '']],
  ])('%j -> %j (no shell interpretation)', (input, argv) => {
    expect(splitCommand(input)).toEqual(argv);
  });

  it('rejects an unterminated quote', () => {
    expect(() => splitCommand('echo "oops')).toThrow(/unterminated/);
  });
});

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
