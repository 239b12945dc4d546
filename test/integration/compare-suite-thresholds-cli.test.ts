import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Experiment } from '../../src/core/experiment.ts';
import { experimentToJson } from '../../src/store/index.ts';
import { experimentOf } from '../helpers/comparison.ts';
import { cli } from '../helpers/run-cli.ts';

// `compare` without --suite takes its rules from the candidate's own suite file and reads only
// that file's `thresholds:` (formats/thresholds-only.ts); a file whose thresholds a whole load
// refuses still gets the whole load's warning. Through the built CLI, where users meet it.

const dir = mkdtempSync(join(tmpdir(), 'harnesseval-compare-suite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tasks = ['t1', 't2', 't3', 't4', 't5', 't6'];

function benchmark(name: string, thresholds: string[]): string {
  const path = join(dir, name);
  const tests = tasks.flatMap((id) => [`  - id: ${id}`, '    input: hi', '    expected: hi']);
  writeFileSync(
    path,
    ['version: "1.0"', 'name: known-suite', 'thresholds:', ...thresholds, 'tests:', ...tests, ''].join('\n'),
  );
  return path;
}

/** v1 passes every task; v2 fails two: accuracy 0.9 -> 0.767. Both name `suiteFile` as theirs. */
function experiments(suiteFile: string, tag: string): [string, string] {
  const withFile = (e: Experiment): Experiment => ({ ...e, suite: { ...e.suite, file: suiteFile } });
  const v1 = withFile(
    experimentOf(
      '01JV1AAAA',
      tasks.map((task) => ({ task, score: 0.9 })),
      { version: '0.1.0', createdAt: '2026-03-01T00:00:00.000Z' },
    ),
  );
  const v2 = withFile(
    experimentOf(
      '01JV2BBBB',
      tasks.map((task) => ({
        task,
        pass: !['t1', 't2'].includes(task),
        score: ['t1', 't2'].includes(task) ? 0.5 : 0.9,
      })),
      { version: '0.2.0', createdAt: '2026-03-15T00:00:00.000Z' },
    ),
  );
  const a = join(dir, `${tag}-v1.json`);
  const b = join(dir, `${tag}-v2.json`);
  writeFileSync(a, experimentToJson(v1));
  writeFileSync(b, experimentToJson(v2));
  return [a, b];
}

describe('compare with the rules of the candidate’s suite file (built CLI)', () => {
  it('gates on the thresholds the file holds', async () => {
    const suite = benchmark('gated.yaml', ['  accuracy:', '    max_regression: 0.05']);
    const [a, b] = experiments(suite, 'gated');
    const r = await cli(['compare', a, b, '--fail-on-regression'], dir);
    expect(r.stderr).toMatch(/^regression: accuracy max_regression threshold=0\.05 /m);
    expect(r.stderr).not.toContain('cannot read thresholds');
    expect(r.status).toBe(1);
  });

  it('warns, naming the file, when the whole load refuses the thresholds, and uses none', async () => {
    const suite = benchmark('typo.yaml', ['  acuracy:', '    max_regression: 0.05']);
    const [a, b] = experiments(suite, 'typo');
    const r = await cli(['compare', a, b], dir);
    expect(r.stderr).toMatch(/warning: cannot read thresholds from .*typo\.yaml/);
    expect(r.stderr).not.toMatch(/^regression: /m);
    expect(r.status).toBe(0);
  });
});
