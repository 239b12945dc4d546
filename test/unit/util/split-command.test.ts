import fc from 'fast-check';
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
    // What a task spec's `command:` and the `command` evaluator both use (one splitter).
    [`node -e "console.log('a b')"`, ['node', '-e', "console.log('a b')"]],
    [`echo "a\\nb"`, ['echo', 'a\\nb']],
    ['ls | wc -l && rm -rf /', ['ls', '|', 'wc', '-l', '&&', 'rm', '-rf', '/']],
  ])('%s', (input, expected) => {
    expect(splitCommand(input)).toEqual(expected);
  });

  it('gives back any argv whose words are single-quoted and joined (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string().filter((w) => !w.includes("'"))), (argv) => {
        const line = argv.map((w) => `'${w}'`).join(' ');
        expect(splitCommand(line)).toEqual(argv);
      }),
    );
  });

  it('rejects unbalanced quotes', () => {
    expect(() => splitCommand(`echo "open`)).toThrow(/unbalanced " quote/);
    expect(() => splitCommand(`echo 'open`)).toThrow(/unbalanced ' quote/);
  });
});
