import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

// Runs the built CLI as a user would (`npm test` builds it first in `pretest`).
const bin = join(process.cwd(), 'bin/harnesseval.js');
const seeds = 'test/fixtures/seeds';
const bad = 'test/fixtures/invalid';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function noStack(text: string): void {
  expect(text).not.toMatch(/\n\s+at /);
}

beforeAll(() => {
  if (!existsSync(join(process.cwd(), 'dist/cli/cli.cjs')))
    throw new Error('run `npx tsdown` before the CLI tests');
});

describe('harnesseval validate', () => {
  it('prints OK with the count and kind for each seed file', () => {
    const r = cli(
      'validate',
      `${seeds}/hello-world-v0.jsonl`,
      `${seeds}/customer-support.yaml`,
      `${seeds}/product-dev/suite.yaml`,
    );
    // The seed-000 benchmark's agent is a Python module: `run` could not create it, so neither
    // does `validate` accept it (with --harness, `run` replaces that agent and loads the file).
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(
      [
        `OK ${seeds}/hello-world-v0.jsonl: 26 cases (eval-case-v0)`,
        `FAIL ${seeds}/customer-support.yaml: 1 error(s)`,
        `OK ${seeds}/product-dev/suite.yaml: 6 tasks (suite)`,
        '',
      ].join('\n'),
    );
    expect(r.stderr).toMatch(/customer-support\.yaml:7:11: agent\.module: module file not found/);
  });

  it('exits 1 with located diagnostics on invalid content, and no stack trace', () => {
    const r = cli('validate', `${bad}/bad-cases.jsonl`);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `${bad}/bad-cases.jsonl:2:24: case_id: invalid value "AB" (expected a string matching ^[a-z0-9][a-z0-9_-]{2,63}$)`,
    );
    expect(r.stdout).toContain(`FAIL ${bad}/bad-cases.jsonl: 8 error(s)`);
    noStack(r.stderr);
  });

  it('locates errors in a plain-JSON suite (read without the YAML parser) at file:line:col', () => {
    const dir = mkdtempSync(join(tmpdir(), 'json-suite-'));
    const tests = Array.from({ length: 200 }, (_, i) => `    {"id": "t${i}", "input": "x", "expected": "x"}`);
    tests[150] = '    {"id": "t150", "input": "x", "tags": "one"}';
    const file = join(dir, 'suite.json');
    writeFileSync(
      file,
      `{\n  "version": "1.0",\n  "name": "big",\n  "tests": [\n${tests.join(',\n')}\n  ]\n}\n`,
    );
    const broken = cli('validate', file);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain(`${file}:155:42: tests[150].tags: wrong type string (expected array)`);
    noStack(broken.stderr);
    // A key written twice is refused where it is written, as YAML refuses it.
    const twice = join(dir, 'twice.json');
    writeFileSync(twice, '{\n  "version": "1.0",\n  "name": "a",\n  "name": "b",\n  "tests": []\n}\n');
    const duplicate = cli('validate', twice);
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toMatch(new RegExp(`${twice}:4:3: .*unique keys`));
    tests[150] = '    {"id": "t150", "input": "x", "expected": "x"}';
    writeFileSync(
      file,
      `{\n  "version": "1.0",\n  "name": "big",\n  "tests": [\n${tests.join(',\n')}\n  ]\n}\n`,
    );
    expect(cli('validate', file).stdout).toBe(`OK ${file}: 200 tests (benchmark)\n`);
  });

  it('exits 1 for a missing file, naming it, and still checks the other files', () => {
    const r = cli('validate', 'missing.jsonl', `${seeds}/hello-world-v0.jsonl`);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('file not found: missing.jsonl');
    expect(r.stdout).toContain('OK test/fixtures/seeds/hello-world-v0.jsonl');
    noStack(r.stderr);
  });

  it('exits 2 on wrong usage', () => {
    expect(cli('validate').status).toBe(2);
    expect(cli('validate', '--as', 'nonsense', 'x.yaml').status).toBe(2);
    expect(cli('validate', '--format', 'xml', 'x.yaml').status).toBe(2);
  });

  it('--format json gives a machine-readable report', () => {
    const r = cli(
      'validate',
      '--format',
      'json',
      `${seeds}/hello-world-v0.jsonl`,
      `${bad}/benchmark-no-tests.yaml`,
    );
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as {
      ok: boolean;
      files: { ok: boolean; count: number; kind: string }[];
    };
    expect(report.ok).toBe(false);
    expect(report.files.map((f) => [f.kind, f.ok, f.count])).toEqual([
      ['eval-case-v0', true, 26],
      ['benchmark', false, 0],
    ]);
  });

  it('--as reads a file as the given kind', () => {
    const r = cli('validate', '--as', 'rubric', `${seeds}/customer-support.yaml`);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/customer-support\.yaml:\d+:\d+: (version|rubric)/);
  });

  it('shows examples in --help', () => {
    const r = cli('validate', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Examples:');
  });
});

describe('harnesseval load (seed 003 behaviour)', () => {
  it('without flags: Loaded N cases from PATH', () => {
    const r = cli('load', `${seeds}/hello-world-v0.jsonl`);
    expect(r).toMatchObject({ status: 0, stdout: `Loaded 26 cases from ${seeds}/hello-world-v0.jsonl\n` });
  });

  it('--validate prints PASS per record and the totals', () => {
    const r = cli('load', `${seeds}/hello-world-v0.jsonl`, '--validate');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('  Line 1: PASS (greet-alice-exact)');
    expect(r.stdout).toContain('\nValidation: 26 passed, 0 failed out of 26 lines\n');
  });

  it('--validate prints FAIL lines and exits 1 on any failure', () => {
    const r = cli('load', `${bad}/bad-cases.jsonl`, '--validate', '--summary');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('  Line 1: PASS (greet-alice-exact)');
    expect(r.stdout).toMatch(/ {2}Line 2: FAIL - .*bad-cases\.jsonl:2:2: schema_version/);
    expect(r.stdout).toContain('Validation: 1 passed, 5 failed out of 6 lines');
    expect(r.stdout).not.toContain('Dataset Summary');
  });

  it('--summary prints the totals and sorted unique tags', () => {
    const r = cli('load', `${seeds}/hello-world-v0.jsonl`, '--summary');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--- Dataset Summary ---\nTotal cases: 26\n');
    expect(r.stdout).toContain('By difficulty: easy=10, medium=8, hard=8');
    expect(r.stdout).toContain('By output type: exact=7, regex=14, jsonpath=5');
    expect(r.stdout).toContain('By source type: hand_written=26, synthetic=0, adversarial=0');
    expect(r.stdout).toContain('Unique tags: basic, case-insensitive, cjk,');
  });

  it('exits 1 for a missing file without a stack trace', () => {
    const r = cli('load', 'nope.jsonl');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('file not found: nope.jsonl');
    noStack(r.stderr);
  });
});

describe('harnesseval lint', () => {
  it('exits 1 on errors and prints rule codes', () => {
    const r = cli('lint', `${bad}/lint-problems.jsonl`);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('[duplicate-id]');
    expect(r.stdout).toContain('[regex-catastrophic]');
    expect(r.stdout).toContain('warning: ');
  });

  it('exits 0 on warnings only, 1 with --strict', () => {
    expect(cli('lint', `${seeds}/hello-world-v0.jsonl`).status).toBe(0);
    expect(cli('lint', '--strict', `${seeds}/hello-world-v0.jsonl`).status).toBe(1);
  });

  it('--format json', () => {
    const r = cli('lint', '--format', 'json', `${seeds}/hello-world-v0.jsonl`);
    const report = JSON.parse(r.stdout) as { ok: boolean; errors: number; warnings: number };
    expect(report).toMatchObject({ ok: true, errors: 0, warnings: 2 });
  });
});

describe('harnesseval schema', () => {
  it('writes one JSON Schema per kind and prints the paths', () => {
    const out = mkdtempSync(join(tmpdir(), 'schemas-'));
    const r = cli('schema', '--out', out);
    expect(r.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual(
      ['benchmark', 'eval-case-v0', 'harbor', 'harness', 'model-script', 'rubric', 'suite', 'task-spec'].map(
        (k) => `${k}.schema.json`,
      ),
    );
    expect(JSON.parse(readFileSync(join(out, 'suite.schema.json'), 'utf8'))).toMatchObject({
      type: 'object',
    });
    expect(r.stdout.trim().split('\n')).toHaveLength(8);
  });

  it('prints all schemas without --out', () => {
    const r = cli('schema');
    expect(Object.keys(JSON.parse(r.stdout) as object)).toHaveLength(8);
  });
});
