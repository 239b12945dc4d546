import { describe, expect, it } from 'vitest';
import { splitCommand } from '../../../src/util/split-command.ts';

describe('splitCommand', () => {
  it('splits on whitespace and groups quoted words', () => {
    expect(splitCommand('npm test -- --grep "login flow"')).toEqual([
      'npm',
      'test',
      '--',
      '--grep',
      'login flow',
    ]);
    expect(splitCommand("  echo  'a  b'\t\"c'd\" ")).toEqual(['echo', 'a  b', "c'd"]);
    expect(splitCommand('a "" b')).toEqual(['a', '', 'b']);
    expect(splitCommand('pre"quoted"post')).toEqual(['prequotedpost']);
  });

  it('keeps backslash escapes outside single quotes and shell syntax as text', () => {
    expect(splitCommand('echo a\\ b "x\\"y"')).toEqual(['echo', 'a b', 'x"y']);
    expect(splitCommand("echo 'a\\b'")).toEqual(['echo', 'a\\b']);
    expect(splitCommand('a && b | c; $HOME *')).toEqual(['a', '&&', 'b', '|', 'c;', '$HOME', '*']);
  });

  it('handles empty input and refuses an unterminated quote', () => {
    expect(splitCommand('')).toEqual([]);
    expect(() => splitCommand('echo "oops')).toThrow(/unterminated/);
  });
});
