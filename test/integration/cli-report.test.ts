import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostic.ts';
import { HarnessEvalError } from '../../src/core/errors.ts';
import { renderJson } from '../../src/reporters/json.ts';
import { readExperimentFile } from '../../src/store/json-io.ts';
import { mixedExperiment } from '../unit/reporters/experiment-factory.ts';

const bin = fileURLToPath(new URL('../../bin/harnesseval.js', import.meta.url));
let dir = '';

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, COLUMNS: undefined },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  if (!existsSync(fileURLToPath(new URL('../../dist/cli/cli.cjs', import.meta.url)))) {
    throw new Error('dist/ is missing: run `npx tsdown` (npm test does it first)');
  }
  dir = await mkdtemp(join(tmpdir(), 'he-cli-report-'));
  await writeFile(join(dir, 'experiment.json'), renderJson(mixedExperiment()));
});

describe('harnesseval report', () => {
  it('renders an exported experiment as CSV into a new folder', async () => {
    const run = cli('report', 'experiment.json', '--format', 'csv', '-o', 'out/x.csv');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('wrote csv report to out/x.csv\n');
    const csv = await readFile(join(dir, 'out', 'x.csv'), 'utf8');
    expect(
      csv.startsWith(
        'test_id,epoch,status,error_kind,agent_latency_seconds,trial_duration_seconds,cost_usd,cost_status,score,evaluator_scores,error\r\n',
      ),
    ).toBe(true);
    expect(csv.split('\r\n').filter((l) => l.startsWith('greet-alice,'))).toHaveLength(1);
  });

  it('takes each format from its -o extension', async () => {
    const run = cli('report', 'experiment.json', '-o', 'out/junit.xml', '-o', 'out/pr.md');
    expect(run.status).toBe(0);
    expect(XMLValidator.validate(await readFile(join(dir, 'out', 'junit.xml'), 'utf8'))).toBe(true);
    expect(await readFile(join(dir, 'out', 'pr.md'), 'utf8')).toContain('## HarnessEval:');
  });

  it('prints the console table to stdout without colour or raw escapes when not a TTY', () => {
    const run = cli('report', 'experiment.json');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^TASK\s+OUTCOME\s+SCORE/m);
    expect(run.stdout).toContain('FAIL  1/6 passed');
    expect(run.stdout).not.toContain('\u001b');
  });

  it('prints any format to stdout with --format', () => {
    const run = cli('report', 'experiment.json', '--format', 'json');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).id).toBe('exp-1');
  });

  it('exits 2 for an unknown format, with a suggestion', () => {
    const run = cli('report', 'experiment.json', '--format', 'jnuit');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('did you mean "junit"');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 for an -o extension no reporter knows, listing the known ones', () => {
    const run = cli('report', 'experiment.json', '-o', 'out/x.pdf');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('.csv (csv)');
  });

  it('exits 1 with located diagnostics for an invalid export', async () => {
    await writeFile(join(dir, 'broken.json'), '{\n  "id": 5\n}\n');
    const run = cli('report', 'broken.json');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^broken\.json:2:\d+: id: /m);
    expect(run.stderr).toContain('harnesseval: broken.json is not a HarnessEval experiment export');
  });

  it.each([
    ['a bad field', (json: string) => json.replace('"outcome": "fail"', '"outcome": "maybe"')],
    ['bad JSON syntax', (json: string) => json.replace('"outcome": "fail",', '"outcome": "fail",,')],
  ])('prints the same located diagnostics as the library reader for %s', async (_, breakIt) => {
    const json = breakIt(renderJson(mixedExperiment()));
    expect(json).not.toBe(renderJson(mixedExperiment()));
    await writeFile(join(dir, 'same.json'), json);
    const error = await readExperimentFile(join(dir, 'same.json'), 'same.json').then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!HarnessEvalError.is(error)) throw new Error('the library accepted the broken file');
    const lines = error.diagnostics.map(formatDiagnostic);
    expect(lines[0]).toMatch(/^same\.json:\d+:\d+: /);
    const expected = `${lines.join('\n')}\nharnesseval: ${error.message}\n`;
    for (const args of [
      ['report', 'same.json'],
      ['runs', 'import', 'same.json'],
    ]) {
      const run = cli(...args);
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(expected);
    }
  });

  it('exits 1 for a missing file', () => {
    const run = cli('report', 'nope.json');
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('harnesseval: file not found: nope.json\n');
  });
});
