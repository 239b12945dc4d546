import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/diagnostic.ts';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { loadHarnessConfig, loadSuite, safeLoadSuite, validateFile } from '../../../src/formats/load.ts';

const bad = 'test/fixtures/invalid';

async function messages(file: string): Promise<string[]> {
  const r = await validateFile(`${bad}/${file}`);
  return r.diagnostics.map(formatDiagnostic);
}

describe('invalid inputs give located diagnostics', () => {
  it('JSONL: every bad line, at its line and key column', async () => {
    expect(await messages('bad-cases.jsonl')).toEqual([
      `${bad}/bad-cases.jsonl:2:2: schema_version: invalid value "v1" (expected "v0")`,
      `${bad}/bad-cases.jsonl:2:24: case_id: invalid value "AB" (expected a string matching ^[a-z0-9][a-z0-9_-]{2,63}$)`,
      `${bad}/bad-cases.jsonl:2:39: prompt: must not be empty (expected a non-empty string)`,
      expect.stringMatching(/bad-cases\.jsonl:3:\d+: expected_output: regex does not compile/),
      `${bad}/bad-cases.jsonl:4:56: not valid JSON: Unexpected token '}' (expected one JSON object per line)`,
      `${bad}/bad-cases.jsonl:5:1: got an array (expected a JSON object (an eval case))`,
      expect.stringMatching(/bad-cases\.jsonl:7:\d+: provenance\.source_type: invalid value "bogus"/),
      expect.stringMatching(/bad-cases\.jsonl:7:\d+: version: 0 is too small \(expected a number >= 1\)/),
    ]);
  });

  it('accepts a BOM, CRLF line ends and blank lines', async () => {
    const r = await validateFile(`${bad}/bom-crlf.jsonl`);
    expect(r).toMatchObject({ kind: 'eval-case-v0', count: 2, diagnostics: [] });
  });

  it('locates invalid UTF-8 at its line and column', async () => {
    expect(await messages('invalid-utf8.jsonl')).toEqual([
      `${bad}/invalid-utf8.jsonl:2:38: invalid UTF-8 (expected UTF-8 text)`,
    ]);
  });

  it.each(['empty.jsonl', 'blank-only.jsonl'])('an empty dataset (%s) is an error', async (f) => {
    expect(await messages(f)).toEqual([
      `${bad}/${f}:1:1: the file has no eval cases (expected one JSON object per line)`,
    ]);
  });

  it('an alias bomb is a located error, not a hang', async () => {
    const [m] = await messages('alias-bomb.yaml');
    expect(m).toMatch(/alias-bomb\.yaml:2:8: too many alias expansions/);
  });

  it('duplicate keys and YAML syntax errors are located', async () => {
    expect(await messages('duplicate-keys.yaml')).toEqual([
      `${bad}/duplicate-keys.yaml:2:1: Map keys must be unique (expected unique keys)`,
    ]);
    expect((await messages('syntax-error.yaml'))[0]).toMatch(
      /syntax-error\.yaml:3:1: .*\(expected valid YAML\)/,
    );
  });

  it('benchmark: unknown names with suggestions, bad options, ranges and duplicate ids, all at once', async () => {
    const f = `${bad}/benchmark-typos.yaml`;
    expect(await messages('benchmark-typos.yaml')).toEqual([
      `${f}:4:12: agent.adapter: unknown adapter "htp" (did you mean "http"?)`,
      `${f}:6:11: evaluators[0].name: unknown evaluator "regx" (did you mean "regex"?)`,
      `${f}:9:16: evaluators[1].options.pattern: wrong type number (expected string)`,
      `${f}:11:5: metrics[0]: unknown metric "sucess_rate" (did you mean "success_rate"?)`,
      `${f}:15:14: thresholds.success_rate.minimum: 1.5 is out of range for success_rate (expected a number in [0, 1])`,
      `${f}:17:14: thresholds.latency.maximum: -1 is out of range for latency (expected a number >= 0)`,
      `${f}:24:21: tests[0].evaluators[0].options.substrng: unknown field "substrng" (expected one of the documented fields)`,
      `${f}:25:9: tests[1].id: duplicate test id "t-1" (first used by tests[0]) (expected unique test ids)`,
    ]);
  });

  it('benchmark: at least one test', async () => {
    expect(await messages('benchmark-no-tests.yaml')).toEqual([
      `${bad}/benchmark-no-tests.yaml:3:8: tests: an array is too small (expected at least 1 item(s))`,
    ]);
  });

  it('suite: a missing ref names the ref and the holding file; task errors are located in the task file', async () => {
    const all = await messages('suite-missing-ref/suite.yaml');
    expect(all).toContainEqual(
      expect.stringMatching(
        /suite-missing-ref\/suite\.yaml:3:10: tasks\[0\]\.ref: ref "tasks\/does-not-exist\.yaml" not found/,
      ),
    );
    expect(all).toContainEqual(
      expect.stringMatching(/suite\.yaml:9:19: scoring\.pass_threshold: 1\.5 is too big/),
    );
    expect(all).toContainEqual(
      expect.stringMatching(/tasks\/bad-task\.yaml:5:13: inputs\.codebase: ref "no-such-dir" not found/),
    );
    expect(all).toContainEqual(
      expect.stringMatching(/tasks\/bad-task\.yaml:6:17: inputs\.requirements: ref "missing\.md" not found/),
    );
    expect(all).toContainEqual(
      expect.stringMatching(/bad-task\.yaml:11:19: acceptance_criteria\[0\]\.verification/),
    );
  });

  it('rubric: weights >= 0 and all four levels', async () => {
    expect(await messages('rubric-bad-levels.yaml')).toEqual([
      `${bad}/rubric-bad-levels.yaml:3:13: rubric.clarity.weight: -1 is too small (expected a number >= 0)`,
      `${bad}/rubric-bad-levels.yaml:5:7: rubric.clarity.levels.4: required field is missing (expected string)`,
    ]);
  });

  it('harness config: adapter options are checked, typos located at the key', async () => {
    const all = await messages('harness-bad.yaml');
    expect(all).toContain(
      `${bad}/harness-bad.yaml:3:9: comand: unknown field "comand" (expected one of the documented fields)`,
    );
    await expect(loadHarnessConfig(`${bad}/harness-bad.yaml`)).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it('loadSuite throws invalid_input with all diagnostics; safeLoadSuite returns them', async () => {
    const error = await loadSuite(`${bad}/bad-cases.jsonl`).catch((e: unknown) => e);
    expect(HarnessEvalError.is(error) && error.code).toBe('invalid_input');
    expect(HarnessEvalError.is(error) && error.diagnostics.length).toBe(8);
    const r = await safeLoadSuite(`${bad}/bad-cases.jsonl`);
    expect(r.ok).toBe(false);
  });

  it('a missing file is not_found, naming the path', async () => {
    await expect(loadSuite('no/such/file.jsonl')).rejects.toMatchObject({
      code: 'not_found',
      message: 'file not found: no/such/file.jsonl',
    });
    await expect(validateFile('no/such/file.yaml')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a rubric is not a suite', async () => {
    await expect(loadSuite('test/fixtures/seeds/product-dev/rubric.yaml')).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('is a rubric file, not a suite'),
    });
  });

  it('caps diagnostics at 50 and says how many more there were', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const file = `${mkdtempSync(`${tmpdir()}/cap-`)}/many.jsonl`;
    writeFileSync(file, '[]\n'.repeat(80));
    const r = await validateFile(file);
    expect(r.diagnostics).toHaveLength(51);
    expect(r.diagnostics[50]?.message).toMatch(/more error\(s\) not shown/);
  });
});

describe('duplicate case ids', () => {
  it('loadSuite rejects a dataset that reuses a case_id, at the second line', async () => {
    const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const line = readFileSync('test/fixtures/seeds/hello-world-v0.jsonl', 'utf8').split('\n')[0] ?? '';
    const file = `${mkdtempSync(`${tmpdir()}/dup-`)}/dup.jsonl`;
    writeFileSync(file, `${line}\n${line}\n`);
    const error = await loadSuite(file).catch((e: unknown) => e);
    expect(HarnessEvalError.is(error) && error.diagnostics.map(formatDiagnostic)).toEqual([
      `${file}:2:1: case_id: duplicate case_id "greet-alice-exact" (first on line 1) (expected unique case ids)`,
    ]);
  });
});
