import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSuite } from '../../../src/formats/index.ts';
import { readThresholdsOnly } from '../../../src/formats/thresholds-only.ts';

const dir = mkdtempSync(join(tmpdir(), 'harnesseval-thresholds-only-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const benchmark = (thresholds: string) =>
  `version: "1.0"\nname: t\ntests:\n  - id: a\n    input: hi\n    expected: hi\n${thresholds}`;

describe('readThresholdsOnly', () => {
  it.each([
    'examples/hello-world/benchmark.yaml',
    'test/fixtures/run/thresholds.yaml',
    'test/fixtures/run-flags/greet.yaml',
  ])('gives the thresholds a whole load of %s gives', async (path) => {
    const whole = await loadSuite(path);
    expect(Object.keys(whole.thresholds).length).toBeGreaterThan(0);
    expect(readThresholdsOnly(path)).toEqual(whole.thresholds);
  });

  it('reads a JSON benchmark and fills the schema defaults', async () => {
    const path = file(
      'b.json',
      JSON.stringify({
        version: '1.0',
        name: 'j',
        tests: [{ id: 'a', input: 'x', expected: 'x' }],
        thresholds: { success_rate: { minimum: 0.5 } },
      }),
    );
    expect(readThresholdsOnly(path)).toEqual({ success_rate: { minimum: 0.5, require_significant: false } });
    expect(readThresholdsOnly(path)).toEqual((await loadSuite(path)).thresholds);
  });

  it('gives none for a file without thresholds', () => {
    expect(readThresholdsOnly(file('none.yaml', benchmark('')))).toEqual({});
  });

  it.each([
    ['an unknown metric', benchmark('thresholds:\n  sucess_rate: { minimum: 0.5 }\n')],
    ['a rate bound above 1', benchmark('thresholds:\n  success_rate: { minimum: 5 }\n')],
    ['a bound of the wrong type', benchmark('thresholds:\n  success_rate: { minimum: high }\n')],
    ['minimum above maximum', benchmark('thresholds:\n  success_rate: { minimum: 0.9, maximum: 0.1 }\n')],
    ['thresholds that are a list', benchmark('thresholds: [1, 2]\n')],
    ['malformed YAML', 'version: "1.0"\ntests: [\n'],
  ])('leaves %s to the whole load, which reports it located', async (_what, text) => {
    const path = file(`bad-${Math.random()}.yaml`, text);
    expect(readThresholdsOnly(path)).toBeUndefined();
    const error = await loadSuite(path).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input' });
    const [first] = (error as { diagnostics: { line: number }[] }).diagnostics;
    expect(first?.line).toBeGreaterThan(0);
  });

  it('leaves datasets, other documents and missing files to the whole load', () => {
    expect(readThresholdsOnly('examples/hello-world/datasets/hello-world-v0.jsonl')).toBeUndefined();
    expect(
      readThresholdsOnly(file('harness.yaml', 'name: h\nversion: 1.0.0\nadapter: http\n')),
    ).toBeUndefined();
    expect(readThresholdsOnly(join(dir, 'missing.yaml'))).toBeUndefined();
  });
});
