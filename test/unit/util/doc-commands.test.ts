import { describe, expect, it } from 'vitest';
import {
  blockOrders,
  checkOutput,
  docBlocks,
  harnessevalArgv,
  harnessevalCommands,
  withRealIds,
} from '../../helpers/doc-commands.ts';

// The docs test's own rules: a parser and matcher that could never fail would test nothing.

const DOC = [
  '# Title',
  '<!-- docs-test: skip: needs a network -->',
  '```bash',
  'npm install   # builds',
  '```',
  'text',
  '<!-- docs-test: setup: touch x -->',
  '```console',
  '$ npx harnesseval run a.yaml \\',
  '    --epochs 3',
  'first line',
  '…',
  'last line',
  '',
  '$ echo $?',
  '0',
  '```',
  '```ts',
  'const notShell = 1;',
  '```',
].join('\n');

describe('docBlocks', () => {
  it('reads console and bash blocks with their markers, and ignores other languages', () => {
    const blocks = docBlocks('doc.md', DOC);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatchObject({ line: 3, skip: 'needs a network', setup: [] });
    expect(blocks[0]?.commands).toEqual([
      { file: 'doc.md', line: 4, command: 'npm install   # builds', expected: undefined },
    ]);
    expect(blocks[1]).toMatchObject({ line: 8, setup: ['touch x'] });
    expect(blocks[1]?.skip).toBeUndefined();
    expect(blocks[1]?.commands.map((c) => [c.line, c.command, c.expected])).toEqual([
      [9, 'npx harnesseval run a.yaml  --epochs 3', ['first line', '…', 'last line']],
      [15, 'echo $?', ['0']],
    ]);
  });
});

describe('harnessevalCommands', () => {
  // One extractor for both uses: the docs test runs each command in a shell, the coding-agents
  // test runs the harnesseval ones as argv. A loop used to be split line by line for the first.
  const LOOP = [
    '```bash',
    'for v in 1.0.0 1.2.0; do',
    '  npx harnesseval run suite.yaml \\',
    '    --harness h/v$v.yaml   # one version',
    'done',
    'npx harnesseval timeline --harness h',
    'npm ci',
    '```',
  ].join('\n');

  it('expands a for loop once per value, in a block and as argv', () => {
    expect(docBlocks('doc.md', LOOP)[0]?.commands.map((c) => [c.line, c.command])).toEqual([
      [3, 'npx harnesseval run suite.yaml  --harness h/v1.0.0.yaml   # one version'],
      [3, 'npx harnesseval run suite.yaml  --harness h/v1.2.0.yaml   # one version'],
      [6, 'npx harnesseval timeline --harness h'],
      [7, 'npm ci'],
    ]);
    expect(harnessevalCommands('doc.md', `${LOOP}\n\ntext\n\n${DOC}`)).toEqual([
      [
        ['run', 'suite.yaml', '--harness', 'h/v1.0.0.yaml'],
        ['run', 'suite.yaml', '--harness', 'h/v1.2.0.yaml'],
        ['timeline', '--harness', 'h'],
      ],
      [],
      [['run', 'a.yaml', '--epochs', '3']],
    ]);
  });

  it('takes only npx harnesseval commands, and refuses a loop without done', () => {
    expect(harnessevalArgv('npx harnesseval validate x.yaml # ok')).toEqual(['validate', 'x.yaml']);
    expect(harnessevalArgv('harnesseval validate x.yaml')).toBeUndefined();
    expect(harnessevalArgv('npm install')).toBeUndefined();
    expect(() => docBlocks('doc.md', '```bash\nfor v in a b; do\n  echo $v\n```')).toThrow(
      'a for loop without done',
    );
  });
});

describe('checkOutput', () => {
  const ids = () => new Map<string, string>();
  it('needs the shown lines in order and adjacent, except across a … line', () => {
    const out = 'noise\nfirst line\nmiddle\nlast line\n';
    expect(checkOutput(['first line', '…', 'last line'], out, ids()).missing).toBeUndefined();
    expect(checkOutput(['first line', 'last line'], out, ids()).missing).toBe('last line');
    expect(checkOutput(['last line', 'first line'], out, ids()).missing).toBe('first line');
  });

  it('collapses spaces, takes … inside a line as any text, and durations and dates as any value', () => {
    const out =
      'latency   0.31s ±0.2s [0s, 1.7s]  n=25\nCreated  2026-12-01 13:57:23\nPASS  3/3 passed; all met\n';
    const shown = [
      'latency 0.24s  ±0.109s [0.0277s, 0.455s] n=25',
      'Created 2026-11-30 22:46:24',
      'PASS  3/3 …',
    ];
    expect(checkOutput(shown, out, ids()).missing).toBeUndefined();
    expect(checkOutput(['latency 0.24s ±0.1s [0s, 1s] n=24'], out, ids()).missing).toBeDefined();
  });

  it('learns the real id behind a shown one, and then holds later lines to it', () => {
    const known = ids();
    const run = 'stored experiment exp-20261201-135723-ef82 in s.db\n';
    expect(
      checkOutput(['stored experiment exp-20261130-224624-15d8 in s.db'], run, known).missing,
    ).toBeUndefined();
    expect(known.get('exp-20261130-224624-15d8')).toBe('exp-20261201-135723-ef82');
    const other = 'Experiment exp-20261201-000000-aaaa\n';
    expect(checkOutput(['Experiment exp-20261130-224624-15d8'], other, known).missing).toBeDefined();
  });
});

describe('withRealIds', () => {
  it('puts the real id for a shown id or its prefix, and the latest for <experiment-id>', () => {
    const known = new Map([['exp-20261130-224624-15d8', 'exp-20261201-135723-ef82']]);
    expect(withRealIds('runs show exp-20261130-224624', known, undefined)).toBe(
      'runs show exp-20261201-135723-ef82',
    );
    expect(withRealIds('report exp-20261130-224624-15d8 -o x', known, undefined)).toBe(
      'report exp-20261201-135723-ef82 -o x',
    );
    expect(withRealIds('report <experiment-id>', known, 'exp-1')).toBe('report exp-1');
  });

  it('takes an id no output has shown for the latest experiment, and leaves real ids alone', () => {
    const known = new Map([['exp-20261130-224624-15d8', 'exp-20261201-135723-ef82']]);
    expect(
      withRealIds('report exp-20261201-084403-b363 --format html', known, 'exp-20261201-140000-aaaa'),
    ).toBe('report exp-20261201-140000-aaaa --format html');
    expect(withRealIds('report exp-20261201-084403-b363', known, undefined)).toBe(
      'report exp-20261201-084403-b363',
    );
  });
});

describe('blockOrders', () => {
  const block = (...commands: string[]) => ({
    file: 'd.md',
    line: 1,
    setup: [],
    commands: commands.map((command) => ({ file: 'd.md', line: 1, command, expected: undefined })),
  });
  it('runs store readers and the writers before them in order, the rest alongside', () => {
    const orders = blockOrders([
      block('npx harnesseval --help'),
      block('npx harnesseval run a.yaml'),
      block('npx harnesseval run a.yaml --no-store', 'npx harnesseval validate a.yaml'),
      block('npx harnesseval runs list'),
      block('npx harnesseval --plugin p.ts run b.yaml'),
      block('npx harnesseval run c.yaml -o out/r.md', 'head out/r.md'),
      block('npx harnesseval run d.yaml'),
    ]);
    expect(orders).toEqual(['free', 'ordered', 'free', 'ordered', 'ordered', 'ordered', 'last']);
  });

  it('a skipped block is free: it never runs', () => {
    expect(blockOrders([{ ...block('npx harnesseval runs list'), skip: 'why' }])).toEqual(['free']);
  });
});
