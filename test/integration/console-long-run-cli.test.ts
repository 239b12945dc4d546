import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExperimentSchema } from '../../src/core/experiment.ts';
import { cli } from '../helpers/run-cli.ts';

// A run of 250 trials through the built CLI: above 200 the console shows the failed and errored
// trials and a summary, `--all` every row, and `-o` files every row whatever the console shows.
const TRIALS = 250;
let root = '';
let suite = '';
let harness = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-console-long-'));
  suite = join(root, 'suite.json');
  const tests = Array.from({ length: TRIALS }, (_, i) => ({
    id: `t${i}`,
    input: `in ${i}`,
    expected: `in ${i}`,
  }));
  await writeFile(suite, JSON.stringify({ version: '1.0', name: 'long', tests }));
  // Every 50th task answers wrong, every 125th throws: 4 failures (t50..t200), 2 errors (t0, t125).
  await writeFile(
    join(root, 'echo.mjs'),
    `export function echo(input) {
  const i = Number(String(input).split(' ')[1]);
  if (i % 125 === 0) throw new Error('broke on ' + i);
  return i % 50 === 0 ? 'wrong' : input;
}\n`,
  );
  harness = join(root, 'harness.yaml');
  await writeFile(
    harness,
    'name: echo\nversion: 1.0.0\nadapter: function\noptions:\n  module: ./echo.mjs#echo\n',
  );
});
afterAll(async () => rm(root, { recursive: true, force: true }));

const rowsOf = (stdout: string) => stdout.split('\n').filter((l) => /^t\d+\s+(PASS|FAIL|ERROR)\b/.test(l));

describe('the console above 200 trials', () => {
  it('shows the failed and errored trials and a summary; the -o reports hold every row', async () => {
    const store = join(root, 'summary.db');
    const html = join(root, 'report.html');
    const json = join(root, 'report.json');
    const r = await cli(
      ['run', suite, '--harness', harness, '--store', store, '--no-progress', '-o', html, '-o', json],
      root,
    );
    expect(r.stderr).not.toMatch(/Error:|at .*\.js/);
    const rows = rowsOf(r.stdout);
    expect(rows).toHaveLength(6);
    expect(rows.filter((l) => / FAIL /.test(l))).toHaveLength(4);
    expect(rows.filter((l) => / ERROR /.test(l))).toHaveLength(2);
    expect(r.stdout).toContain(`244 of ${TRIALS} trials not shown: --all shows every row`);
    expect(r.stdout).toMatch(/244\/250 passed, 4 failed, 2 errors/);
    expect(r.stdout.split('\n').length).toBeLessThan(80);
    // Read from pages of the store, the summary is what `report` prints from the whole experiment.
    const id = /stored experiment (exp-\S+)/.exec(r.stderr)?.[1] ?? '';
    expect((await cli(['report', id, '--store', store], root)).stdout).toBe(r.stdout);

    const experiment = ExperimentSchema.parse(JSON.parse(await readFile(json, 'utf8')));
    expect(experiment.records).toHaveLength(TRIALS);
    expect(experiment.records.every((r) => r.output.output !== undefined)).toBe(true);
    const page = await readFile(html, 'utf8');
    expect(page).toContain('t249');
    expect(page).toContain('t137');
  }, 120_000);

  it('shows every row with --all', async () => {
    const store = join(root, 'all.db');
    const r = await cli(
      ['run', suite, '--harness', harness, '--store', store, '--no-progress', '--all'],
      root,
    );
    expect(rowsOf(r.stdout)).toHaveLength(TRIALS);
    expect(r.stdout).not.toContain('--all shows every row');
    const id = /stored experiment (exp-\S+)/.exec(r.stderr)?.[1] ?? '';
    expect((await cli(['report', id, '--store', store, '--all'], root)).stdout).toBe(r.stdout);
  }, 120_000);

  it('shows every row of a run of 200 or fewer without --all (no store)', async () => {
    const small = join(root, 'small.json');
    const tests = Array.from({ length: 200 }, (_, i) => ({
      id: `t${i}`,
      input: `in ${i}`,
      expected: `in ${i}`,
    }));
    await writeFile(small, JSON.stringify({ version: '1.0', name: 'small', tests }));
    const r = await cli(['run', small, '--harness', harness, '--no-store', '--no-progress'], root);
    expect(rowsOf(r.stdout)).toHaveLength(200);
  }, 120_000);
});
