import { describe, expect, it } from 'vitest';
import { splitCommand } from '../../../src/util/split-command.ts';

describe('splitCommand', () => {
  it.each([
    ['node agent.js', ['node', 'agent.js']],
    ['  node   agent.js  ', ['node', 'agent.js']],
    [`node agent.js --name "Ada Lovelace"`, ['node', 'agent.js', '--name', 'Ada Lovelace']],
    [`echo 'single $HOME | x'`, ['echo', 'single $HOME | x']],
    [`echo "say \\"hi\\""`, ['echo', 'say "hi"']],
    [`echo a\\ b`, ['echo', 'a b']],
    [`echo "" ''`, ['echo', '', '']],
    [`a"b c"d`, ['ab cd']],
    ['echo $(rm -rf /); ls', ['echo', '$(rm', '-rf', '/);', 'ls']],
    ['', []],
  ])('%s', (input, expected) => {
    expect(splitCommand(input)).toEqual(expected);
  });

  it('rejects unbalanced quotes', () => {
    expect(() => splitCommand(`echo "open`)).toThrow(/unbalanced " quote/);
    expect(() => splitCommand(`echo 'open`)).toThrow(/unbalanced ' quote/);
  });
});
