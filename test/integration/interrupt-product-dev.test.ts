import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Experiment, ExperimentSchema } from '../../src/core/experiment.ts';
import { cli, ROOT, startCli } from '../helpers/run-cli.ts';

// Ctrl-C during the product-dev suite: the trials in flight are not results of the harness (they
// were stored as FAIL, their criteria killed by the signal); they run again on resume, and the
// resumed experiment equals an uninterrupted one. Two tasks keep it to about a minute.
// A trial takes 2.5 s on a quiet machine and over 10 s on a loaded one: `--grace 0.5` keeps the
// in-flight trials from finishing inside the grace whatever the machine's speed (the default 5 s
// let both finish on a fast machine: exit 0).

const SUITE = join(ROOT, 'suites/product-dev/suite.yaml');
const HARNESS = join(ROOT, 'examples/harness-lineage/v0.5.0.yaml');
// auth-implementation and crud-api
const FILTER = ['--filter-id', '[ac][ur]*'];
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-interrupt-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function exported(db: string, id: string): Promise<Experiment> {
  const file = join(dir, `${id}.json`);
  const r = await cli(['runs', 'export', id, '-o', file, '--store', db], dir);
  expect(r.status, r.stderr).toBe(0);
  return ExperimentSchema.parse(JSON.parse(await readFile(file, 'utf8')));
}

/** What must be equal between two runs: per trial its outcome, scores, criteria and process metrics. */
function results(experiment: Experiment) {
  return experiment.records.map((r) => ({
    task: r.task_id,
    epoch: r.epoch,
    outcome: r.outcome,
    scores: r.scores,
    criteria: r.criteria.map((c) => [c.id, c.status, c.score]),
    metrics: r.metrics,
  }));
}

describe('Ctrl-C on the product-dev suite', () => {
  it('in-flight trials are re-run on resume; the experiment equals an uninterrupted one', async () => {
    const baselineDb = join(dir, 'baseline.db');
    const baseline = await cli(
      ['run', SUITE, '--harness', HARNESS, ...FILTER, '-j', '2', '--store', baselineDb, '--no-progress'],
      dir,
    );
    expect(baseline.status, baseline.stderr).toBe(0);
    const baselineId = /stored experiment (\S+)/.exec(baseline.stderr)?.[1] ?? '';

    const db = join(dir, 'interrupted.db');
    const run = startCli(
      [
        'run',
        SUITE,
        '--harness',
        HARNESS,
        ...FILTER,
        '-j',
        '2',
        '--store',
        db,
        '--no-progress',
        '--grace',
        '0.5',
      ],
      dir,
    );
    // Both trials are in flight (copy, then node --test criteria) and cannot finish within the
    // half-second grace: SIGINT goes half a second after the run said it started (its pending-rubric
    // line, printed at run_start). A fixed sleep from spawn met a still-starting CLI on a loaded
    // machine.
    const startedBy = Date.now() + 60_000;
    while (!/exp-\d{8}-\d{6}/.test(run.stderr()) && Date.now() < startedBy)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 500));
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.status, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain('finishing in-flight trials (up to 0.5 s)');
    const id = /--resume (\S+)/.exec(stopped.stderr)?.[1] ?? '';
    const partial = await exported(db, id);
    expect(partial.status).toBe('interrupted');
    // Whatever finished within the grace period is a real result; nothing stopped is stored.
    for (const record of partial.records) {
      expect(record.outcome, JSON.stringify(record.criteria)).not.toBe('fail');
      expect(record.criteria.every((c) => c.status !== 'error')).toBe(true);
    }
    expect(partial.records.length).toBeLessThan(2);

    const command = /resume with: npx harnesseval (.+)$/m.exec(stopped.stderr)?.[1]?.split(' ') ?? [];
    expect(command.join(' ')).toContain('--grace 0.5');
    const resumed = await cli([...command, '--no-progress'], dir);
    expect(resumed.status, resumed.stderr).toBe(0);
    const finished = await exported(db, id);
    expect(finished.status).toBe('completed');
    expect(results(finished)).toEqual(results(await exported(baselineDb, baselineId)));
  }, 240_000);
});
