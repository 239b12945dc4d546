import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Experiment, ExperimentSchema } from '../../src/core/experiment.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';

// The headline figures through the built CLI: pending trials, the overall score, the two latencies,
// environment errors and the two error conventions.
const FLAGS = join(ROOT, 'test/fixtures/run-flags');
const JUDGE = join(ROOT, 'test/fixtures/judge-cli');
const ENV = join(ROOT, 'test/fixtures/environment');

let root = '';
let count = 0;
async function scratch(): Promise<string> {
  const dir = join(root, `case-${++count}`);
  await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
  return dir;
}
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-figures-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

const parse = (stdout: string): Experiment => ExperimentSchema.parse(JSON.parse(stdout));
const metric = (e: Experiment, name: string) => e.metrics.find((m) => m.name === name);

/** Two epochs pass their automated check and wait for a grade; two fail at once. */
const pendingRun = (args: string[], cwd = ROOT) =>
  cli(
    [
      'run',
      join(JUDGE, 'suite.yaml'),
      '--harness',
      join(JUDGE, 'by-epoch-1.0.0.yaml'),
      '--epochs',
      '4',
      ...args,
    ],
    cwd,
  );

describe('pending trials never vanish from a rate', () => {
  it('every rate says how many trials are decided and pending, and has no interval over the decided ones', async () => {
    const dir = await scratch();
    const json = parse((await pendingRun(['--no-store', '--reporter', 'json'])).stdout);
    expect(json.records.map((r) => r.outcome)).toEqual(['pending', 'fail', 'pending', 'fail']);
    const success = metric(json, 'success_rate');
    // Failures are decided at once and passes wait: 0% of the decided is biased, so no interval.
    expect(success).toMatchObject({ value: 0, stderr: null, ci95: null });
    expect(success?.details).toMatchObject({ decided: 2, pending: 2, possible_range: [0, 0.5] });
    const r = await pendingRun(['--no-store', '-o', join(dir, 'r.md'), '-o', join(dir, 'r.html')]);
    expect(r.stdout).toMatch(
      /^success_rate\s+0\.0%\s+n=1\s+2 decided, 2 pending \(0\.0%–50\.0% once graded\)$/m,
    );
    expect(r.stdout).toMatch(/^overall_score\s+0\.\d+\s+n=1\s+2 decided, 2 pending/m);
    expect(r.stdout).not.toMatch(/^success_rate.*±/m);
    expect(await readFile(join(dir, 'r.md'), 'utf8')).toMatch(
      /\| success_rate \| 0\.0% \| {2}\| {2}\| 1 \| 2 decided, 2 pending \(0\.0%–50\.0% once graded\) \|/,
    );
    const html = await readFile(join(dir, 'r.html'), 'utf8');
    expect(html).toContain('2 decided, 2 pending (0.0%–50.0% once graded)');
    expect(html).toMatch(/Overall score<\/dt><dd>0\.\d+ \(2 decided, 2 pending; 0\.\d+–0\.\d+ once graded\)/);
  });

  it('the timeline labels a value resting on decided trials, so `0.000 → n/a` cannot appear', async () => {
    const dir = await scratch();
    const store = join(dir, 's.db');
    await pendingRun(['--store', store]);
    // A later version whose every trial waits for a grade: its score is not known yet.
    await cli(
      ['run', join(JUDGE, 'suite.yaml'), '--harness', join(JUDGE, 'by-epoch-1.1.0.yaml'), '--store', store],
      dir,
    );
    const r = await cli(
      [
        'timeline',
        '--harness',
        'by-epoch',
        '--store',
        store,
        '--metric',
        'success_rate',
        '--metric',
        'overall_score',
      ],
      dir,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/v1\.0\.0\s+0\.0% \(2 pending\)\s+0\.\d+ \(2 pending\)/);
    expect(r.stdout).not.toMatch(/0\.000 → n\/a\s/);
    expect(r.stdout).toMatch(/^Score\s.*0\.000 \(2 pending\) → n\/a \(1 pending\)/m);
  });
});

describe('one overall score, the same everywhere', () => {
  it('console, JSON, HTML, runs show and grade print the same figure with the same counts', async () => {
    const dir = await scratch();
    const store = join(dir, 's.db');
    const run = await pendingRun(['--store', store, '--reporter', 'json']);
    const experiment = parse(run.stdout);
    const overall = metric(experiment, 'overall_score');
    expect(experiment.scores['overall']).toBe(overall?.value);
    const text = `${experiment.scores['overall']?.toFixed(3)} (2 decided, 2 pending`;
    const show = await cli(['runs', 'show', experiment.id, '--store', store], dir);
    expect(show.stdout).toMatch(new RegExp(`^\\s+overall\\s+${text.replace(/[()]/g, '\\$&')}`, 'm'));
    await cli(
      ['report', experiment.id, '--store', store, '--format', 'html', '-o', join(dir, 'r.html')],
      dir,
    );
    expect(await readFile(join(dir, 'r.html'), 'utf8')).toContain(`Overall score</dt><dd>${text}`);
    // Grade one pending trial at level 4: it passes, and every output moves together.
    const graded = await cli(['grade', experiment.id, '--store', store], dir);
    expect(graded.status).toBe(0);
    const after = await cli(['runs', 'show', experiment.id, '--store', store, '--format', 'json'], dir);
    const summary = JSON.parse(after.stdout) as {
      overall: { value: number; decided: number; pending: number };
    };
    expect(summary.overall).toMatchObject({ decided: 2, pending: 2 });
    expect(graded.stdout).toContain(`overall score ${text}`);
  });
});

describe('agent latency and trial duration are named apart', () => {
  it('console, HTML and CSV say which they show; an old store’s `latency` reads as agent_latency', async () => {
    const dir = await scratch();
    const r = await cli(
      [
        'run',
        join(FLAGS, 'greet.yaml'),
        '--no-store',
        '-o',
        join(dir, 'r.html'),
        '-o',
        join(dir, 'r.csv'),
        '-o',
        join(dir, 'e.json'),
      ],
      dir,
    );
    expect(r.stdout).toMatch(/^TASK\s+OUTCOME\s+SCORE\s+AGENT LATENCY\s+COST\s+DETAILS$/m);
    expect(r.stdout).toMatch(/^agent_latency\s/m);
    expect(r.stdout).toMatch(/^trial_duration\s/m);
    const html = await readFile(join(dir, 'r.html'), 'utf8');
    expect(html).toContain('<button type="button">agent latency</button>');
    expect(html).toContain('<button type="button">trial duration</button>');
    expect(html).toContain('Distribution of trial duration');
    expect((await readFile(join(dir, 'r.csv'), 'utf8')).split('\r\n')[0]).toContain(
      'agent_latency_seconds,trial_duration_seconds',
    );
    // An experiment written before the rename: its metric is read under the new name.
    const old = JSON.parse(await readFile(join(dir, 'e.json'), 'utf8')) as { metrics: { name: string }[] };
    for (const m of old.metrics) if (m.name === 'agent_latency') m.name = 'latency';
    await writeFile(join(dir, 'old.json'), JSON.stringify(old));
    const shown = await cli(['report', join(dir, 'old.json'), '--format', 'json'], dir);
    expect(parse(shown.stdout).metrics.map((m) => m.name)).toContain('agent_latency');
  });

  it('a suite that names `latency` in its metrics and thresholds still works', async () => {
    const dir = await scratch();
    const text = (await readFile(join(FLAGS, 'greet.yaml'), 'utf8'))
      .replace('thresholds:', 'metrics: [success_rate, latency]\nthresholds:')
      .replace('  success_rate:\n    minimum: 0.9', '  latency:\n    maximum: 60');
    await writeFile(join(dir, 'old-names.yaml'), text.replace('./agents.mjs', join(FLAGS, 'agents.mjs')));
    const r = await cli(['run', join(dir, 'old-names.yaml'), '--no-store', '--reporter', 'json'], dir);
    expect(r.status).toBe(0);
    expect(parse(r.stdout).metrics.map((m) => m.name)).toEqual(['success_rate', 'agent_latency']);
  });
});

describe('errors: the harness’s, the environment’s, and both conventions', () => {
  it('reports success with errors counted as failures and over completed trials only, each with its interval', async () => {
    const r = await cli([
      'run',
      join(FLAGS, 'greet.yaml'),
      '--harness',
      join(FLAGS, 'picky.yaml'),
      '--no-store',
      '--reporter',
      'json',
    ]);
    const e = parse(r.stdout);
    expect(e.records.map((x) => x.outcome)).toEqual(['pass', 'pass', 'error', 'fail']);
    expect(metric(e, 'success_rate')).toMatchObject({ value: 0.5, n: 4 });
    expect(metric(e, 'success_rate_completed')).toMatchObject({ value: 2 / 3, n: 3, details: { errors: 1 } });
    expect(metric(e, 'success_rate')?.ci95).not.toBeNull();
    expect(metric(e, 'success_rate_completed')?.ci95).not.toBeNull();
    expect(metric(e, 'success_rate')?.details).toMatchObject({ errors_by_kind: { agent: 1 } });
  });

  it('a check that cannot run where it runs is an ERROR of kind environment, not a FAIL, and is left out of the rates', async () => {
    // The suite copied out of the repository: no node_modules above it, so no tsx.
    const dir = await scratch();
    await cp(ENV, join(dir, 'suite'), { recursive: true });
    const store = join(dir, 's.db');
    const args = [
      'run',
      join(dir, 'suite/suite.yaml'),
      '--harness',
      join(dir, 'suite/noop.yaml'),
      '--store',
      store,
    ];
    const json = await cli([...args, '--reporter', 'json'], dir);
    const e = parse(json.stdout);
    const [record] = e.records;
    expect(record).toMatchObject({ outcome: 'error', error_kind: 'environment' });
    expect(record?.error).toMatch(/^environment: criterion ac-01: .*Cannot find package 'tsx'/);
    expect(record?.criteria.map((c) => c.status)).toEqual(['error', 'passed']);
    expect(metric(e, 'success_rate')).toMatchObject({ value: null, details: { environment_errors: 1 } });
    expect(metric(e, 'error_rate')).toMatchObject({ value: null, details: { environment_errors: 1 } });
    expect(e.outcome).toBe('error');
    expect(json.stderr).toContain('every trial hit an environment error');
    const table = await cli(['runs', 'show', e.id, '--store', store], dir);
    expect(table.stdout).toMatch(/success_rate\s+n\/a\s+n=0\s+1 environment error left out/);

    // Install the package next to the suite and run only the errored trials again.
    await symlink(join(ROOT, 'node_modules'), join(dir, 'suite/node_modules'), 'dir');
    const retry = await cli([...args, '--retry-errors', e.id.slice(0, 20), '--reporter', 'json'], dir);
    expect(retry.stderr).toContain(`retrying 1 errored trials of ${e.id}`);
    const fixed = parse(retry.stdout);
    expect(fixed.id).toBe(e.id);
    expect(fixed.records.map((x) => x.outcome)).toEqual(['pass']);
    expect(metric(fixed, 'success_rate')?.value).toBe(1);
  }, 60_000);

  it('a package the code under test fails to find is the harness’s failure, not the environment’s', async () => {
    const r = await cli([
      'run',
      join(ENV, 'suite.yaml'),
      '--harness',
      join(ENV, 'breaker.yaml'),
      '--no-store',
      '--reporter',
      'json',
    ]);
    const [record] = parse(r.stdout).records;
    expect(record?.outcome).toBe('fail');
    expect(record?.error_kind).toBeUndefined();
    expect(record?.criteria.map((c) => c.status)).toEqual(['failed', 'failed']);
  });

  it('--retry-errors leaves passed, failed and harness-errored trials alone', async () => {
    const dir = await scratch();
    const store = join(dir, 's.db');
    const calls = join(dir, 'calls.txt');
    const args = ['run', join(FLAGS, 'greet.yaml'), '--harness', join(FLAGS, 'picky.yaml'), '--store', store];
    const first = parse((await cli([...args, '--reporter', 'json'], dir, { CALLS_FILE: calls })).stdout);
    const retried = await cli([...args, '--retry-errors', first.id, '--reporter', 'json'], dir, {
      CALLS_FILE: calls,
    });
    expect(retried.stderr).toContain('retrying 0 errored trials');
    // The agent error (kind agent) is the harness's result: kept, not run again.
    expect(parse(retried.stdout).records.map((x) => x.outcome)).toEqual(['pass', 'pass', 'error', 'fail']);
    const both = await cli([...args, '--retry-errors', first.id, '--resume', first.id], dir);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--resume and --retry-errors cannot be combined');
  });
});
