import { describe, expect, it } from 'vitest';
import { type CliResult, cli } from '../helpers/run-cli.ts';

// `validate` makes every check `run` makes before its first trial (one rule set): a file one
// refuses, the other refuses with the same located message, and a file one accepts, the other
// loads. Each case below passed `validate` and failed `run` before.

const DIR = 'test/fixtures/preflight';

const firstDiagnostic = (result: CliResult): string =>
  result.stderr.split('\n').find((line) => /^\S+:\d+:\d+: /.test(line)) ?? `(none in: ${result.stderr})`;

const refused: { file: string; harness?: string; line: RegExp }[] = [
  {
    file: 'duplicate-case-ids.jsonl',
    line: /duplicate-case-ids\.jsonl:3:1: case_id: duplicate case_id "greet-ada-exact" \(first on line 1\)/,
  },
  {
    file: 'missing-module.yaml',
    line: /missing-module\.yaml:6:11: agent\.module: module file not found: \S+no-such-agent\.ts/,
  },
  {
    file: 'missing-check.yaml',
    line: /missing-check\.yaml:7:24: evaluators\[0\]\.options\.module: module file not found: \S+no-such-check\.mjs/,
  },
  {
    file: 'catastrophic-regex.yaml',
    line: /catastrophic-regex\.yaml:7:25: evaluators\[0\]\.options\.pattern: .*\^\(a\+\)\+\$.*refused/,
  },
  {
    file: 'catastrophic-expected.yaml',
    line: /catastrophic-expected\.yaml:9:44: tests\[1\]\.expected: .*refused/,
  },
  {
    file: 'valid.yaml',
    harness: 'harness-missing-module.yaml',
    line: /harness-missing-module\.yaml:6:11: options\.module: module file not found/,
  },
  {
    file: 'valid.yaml',
    harness: 'harness-bad-arg.yaml',
    line: /harness-bad-arg\.yaml:8:10: options\.input: input: arg needs an argument containing \{\{input\}\}/,
  },
];

describe('validate and run agree', () => {
  it.each(refused)('$file (harness: $harness): both refuse it, located', async ({ file, harness, line }) => {
    const checked = harness ?? file;
    const validated = await cli(['validate', `${DIR}/${checked}`]);
    expect(firstDiagnostic(validated)).toMatch(line);
    expect(validated.status).toBe(1);
    const run = await cli([
      'run',
      `${DIR}/${file}`,
      ...(harness === undefined ? [] : ['--harness', `${DIR}/${harness}`]),
      '--no-store',
      '--no-progress',
    ]);
    expect(firstDiagnostic(run)).toMatch(line);
    expect(run.stdout).toBe(''); // refused before the first trial
    expect(run.status).toBe(2);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('a file both accept: validate says OK and run runs it', async () => {
    const validated = await cli(['validate', `${DIR}/valid.yaml`]);
    expect(validated.stdout).toContain('OK');
    expect(validated.status).toBe(0);
    const run = await cli(['run', `${DIR}/valid.yaml`, '--no-store', '--no-progress']);
    expect(run.stdout).toMatch(/^one\s+PASS/m);
    expect(run.status).toBe(0);
  });

  it('--harness replaces the file’s agent, so run does not need that agent’s module', async () => {
    const run = await cli([
      'run',
      `${DIR}/missing-module.yaml`,
      '--harness',
      `${DIR}/echo-harness.yaml`,
      '--no-store',
      '--no-progress',
    ]);
    expect(run.stderr).not.toContain('module file not found');
    expect(run.stdout).toMatch(/^one\s+PASS/m);
    expect(run.status).toBe(0);
  });
});

describe('files that are not inputs', () => {
  it.each([
    ['README.md', 'README.md'],
    ['examples/hello-world/agent.ts', 'agent.ts'],
    ['package.json', 'package.json'],
  ])('validate %s names it as not an input file, in one line', async (file, name) => {
    const result = await cli(['validate', file]);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`not an input file: ${name}`);
    expect(result.status).toBe(1);
  });

  it('run says the same', async () => {
    const result = await cli(['run', 'README.md', '--no-store', '--no-progress']);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toContain('README.md: not an input file: README.md');
    expect(lines.slice(1)).toEqual([`harnesseval: ${lines[0]?.split(': ')[0]}: 1 error(s)`]);
    expect(result.status).toBe(2);
  });

  it('load refuses a file that is not a v0 dataset instead of loading 0 cases', async () => {
    for (const file of ['README.md', 'examples/hello-world/benchmark.yaml']) {
      const result = await cli(['load', file]);
      expect(result.stderr).toContain(`not a v0 JSONL dataset: ${file}`);
      expect(result.stdout).toBe('');
      expect(result.status).toBe(1);
    }
  });

  it('--as still reads any file as the kind it names', async () => {
    const result = await cli(['validate', 'README.md', '--as', 'benchmark']);
    expect(result.stderr).not.toContain('not an input file');
    expect(result.status).toBe(1);
  });
});
