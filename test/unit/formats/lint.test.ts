import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { lintFile } from '../../../src/formats/lint.ts';

const codes = (ds: { code?: string | undefined; line: number }[]) => ds.map((d) => [d.line, d.code]);

describe('lintFile', () => {
  it('finds duplicate ids, duplicate prompts, catastrophic regexes and version drift', async () => {
    const ds = await lintFile('test/fixtures/invalid/lint-problems.jsonl');
    expect(codes(ds)).toEqual([
      [2, 'duplicate-id'],
      [2, 'duplicate-prompt'],
      // `validate` and `run` refuse the case too (one rule set), so line 3 is invalid and its
      // hygiene rules (missing tags, a reused prompt) wait until the pattern is fixed.
      [3, 'regex-catastrophic'],
      [4, 'invalid'],
      [4, 'schema-version-drift'],
    ]);
    expect(ds.find((d) => d.code === 'regex-catastrophic')).toMatchObject({
      severity: 'error',
      path: 'expected_output',
    });
    expect(ds.find((d) => d.code === 'schema-version-drift')?.message).toContain('v0 (3), v1 (1)');
  });

  it('finds no errors in the seed dataset, only its two reused prompts', async () => {
    const ds = await lintFile('test/fixtures/seeds/hello-world-v0.jsonl');
    expect(ds.map((d) => [d.line, d.code, d.severity, d.message])).toEqual([
      [11, 'duplicate-prompt', 'warning', 'same prompt as line 3'],
      [13, 'duplicate-prompt', 'warning', 'same prompt as line 5'],
    ]);
  });

  it('flags zero weights, missing tags and unsafe regex options in suites and benchmarks', async () => {
    const dir = mkdtempSync(`${tmpdir()}/lint-`);
    writeFileSync(
      `${dir}/b.yaml`,
      [
        'version: "1.0"',
        'name: b',
        'tests:',
        '  - id: a',
        '    input: hi',
        '    weight: 0',
        '  - id: b',
        '    input: hi',
        '    tags: [t]',
      ].join('\n'),
    );
    const ds = await lintFile(`${dir}/b.yaml`);
    expect(ds.map((d) => d.code).sort()).toEqual(['duplicate-prompt', 'missing-tags', 'zero-weight']);
  });

  it('reports a pattern the run would refuse as regex-catastrophic, at its option (the file does not load)', async () => {
    const dir = mkdtempSync(`${tmpdir()}/lint-`);
    writeFileSync(
      `${dir}/b.yaml`,
      [
        'version: "1.0"',
        'name: b',
        'tests:',
        '  - id: a',
        '    input: hi',
        '    evaluators: [{name: regex, options: {pattern: "(x*)*y"}}]',
      ].join('\n'),
    );
    const ds = await lintFile(`${dir}/b.yaml`);
    expect(ds.map((d) => [d.line, d.code, d.path])).toEqual([
      [6, 'regex-catastrophic', 'tests[0].evaluators[0].options.pattern'],
    ]);
  });

  it('reports invalid files under the "invalid" code', async () => {
    const ds = await lintFile('test/fixtures/invalid/benchmark-no-tests.yaml');
    expect(ds.map((d) => d.code)).toEqual(['invalid']);
  });
});
