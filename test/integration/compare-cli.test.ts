import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentToJson } from '../../src/store/index.ts';
import { experimentOf } from '../helpers/comparison.ts';
// Drives the built CLI (`npx tsdown` first; `npm test` does it in pretest).
import { cli } from '../helpers/run-cli.ts';

const tasks = Array.from({ length: 10 }, (_, i) => `task-${i}`);
// Baseline: every task passes with accuracy .9. Candidate: tasks 0-5 fail (accuracy .3): a
// consistent, significant drop. Next: all pass again.
const base = experimentOf(
  '01KBASE00',
  tasks.map((task) => ({ task, score: 0.9 })),
  {
    version: '1.0.0',
    createdAt: '2026-01-01T00:00:00.000Z',
  },
);
const worse = experimentOf(
  '01KWORSE0',
  tasks.map((task, i) => ({ task, pass: i > 5, score: i > 5 ? 0.9 : 0.3, explanation: `missed ${task}` })),
  { version: '1.1.0', createdAt: '2026-01-08T00:00:00.000Z' },
);
const fixed = experimentOf(
  '01KFIXED0',
  tasks.map((task) => ({ task, score: 0.95 })),
  {
    version: '1.2.0',
    createdAt: '2026-01-15T00:00:00.000Z',
  },
);

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-compare-cli-'));
  for (const [name, e] of [
    ['base', base],
    ['worse', worse],
    ['fixed', fixed],
  ] as const) {
    await writeFile(join(dir, `${name}.json`), experimentToJson(e));
    const imported = await cli(['runs', 'import', `${name}.json`], dir);
    expect(imported.status).toBe(0);
  }
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('harnesseval compare / timeline / power (built CLI)', () => {
  it('compares stored experiments by id prefix and latest:, exit 0 without a gate', async () => {
    const r = await cli(['compare', '01KBASE', 'latest:lineage@1.1.0'], dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^success_rate\s+100\.0%\s+40\.0%\s+-60\.0%/m);
    expect(r.stdout).toContain(
      'success_rate: McNemar exact test on 10 shared tasks: 6 pass→fail, 0 fail→pass',
    );
    expect(r.stdout).toMatch(/^success_rate\s.*\s0\.031\s+\S+\s+McNemar\s/m);
    expect(r.stdout).toContain('✗ task-0  100% → 0%  contains: missed task-0');
  });

  it('--fail-on-regression exits 1 with one line per violation', async () => {
    const r = await cli(
      [
        'compare',
        'base.json',
        'worse.json',
        '--fail-on-regression',
        '--threshold',
        'accuracy:max_regression=0.1,require_significant=true',
      ],
      dir,
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^regression: accuracy max_regression threshold=0\.1 actual=0\.54\d* \(01KWORSE0\): /m,
    );
    const ok = await cli(['compare', 'base.json', 'fixed.json', '--fail-on-regression'], dir);
    expect(ok.status).toBe(0);
  });

  it('flaky across stored runs of one version: marked, left out with --exclude-flaky, shown by report', async () => {
    // A second run of v1.0.0 where task-0 fails: task-0 is flaky for that version.
    const rerun = experimentOf(
      '01KRERUN0',
      tasks.map((task, i) => ({ task, pass: i !== 0, score: i === 0 ? 0.3 : 0.9 })),
      { version: '1.0.0', createdAt: '2025-12-31T00:00:00.000Z' },
    );
    await writeFile(join(dir, 'rerun.json'), experimentToJson(rerun));
    expect((await cli(['runs', 'import', 'rerun.json'], dir)).status).toBe(0);
    const c = JSON.parse(
      (await cli(['compare', '01KBASE', 'latest:lineage@1.1.0', '--format', 'json'], dir)).stdout,
    );
    expect(c.pairs[0].flaky).toEqual([{ task_id: 'task-0', trials: 2, passes: 1, flip_rate: 1, runs: 2 }]);
    expect(c.pairs[0].regressions[0]).toMatchObject({ task_id: 'task-0', flaky: true });
    const excluded = await cli(['compare', '01KBASE', 'latest:lineage@1.1.0', '--exclude-flaky'], dir);
    expect(excluded.stdout).toContain('paired over 9 of 10 tasks (1 flaky left out)');
    expect(excluded.stdout).toContain('Regressions (v1.1.0: pass → fail): 5');
    const report = await cli(['report', '01KBASE', '--format', 'markdown'], dir);
    expect(report.stdout).toContain('- :warning: task-0: 1 of 2 attempts passed, flip rate 1.00 (2 runs)');
    // Two runs of one version compared: each is the other's other run, taken from what compare read.
    const same = JSON.parse((await cli(['compare', '01KBASE', '01KRERUN', '--format', 'json'], dir)).stdout);
    expect(same.pairs[0].flaky).toEqual([{ task_id: 'task-0', trials: 2, passes: 1, flip_rate: 1, runs: 2 }]);
    expect(same.pairs[0].regressions).toEqual([expect.objectContaining({ task_id: 'task-0', flaky: true })]);
  });

  it('--sequential prints the always-valid verdict; --margin needs it; --adjust takes holm|bh|none', async () => {
    const r = await cli(['compare', 'base.json', 'worse.json', '--sequential', '--margin', '0.1'], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Sequential \(always-valid confidence sequence, α = 0\.05\):$/m);
    expect(r.stdout).toMatch(/^ {2}success_rate: (different|undecided) /m);
    expect((await cli(['compare', 'base.json', 'worse.json', '--margin', '0.1'], dir)).status).toBe(2);
    expect((await cli(['compare', 'base.json', 'worse.json', '--adjust', 'bonferroni'], dir)).status).toBe(2);
    const none = await cli(['compare', 'base.json', 'worse.json', '--adjust', 'none'], dir);
    expect(none.stdout).toContain('no adjustment for the number of metrics');
  });

  it('usage errors exit 2', async () => {
    expect((await cli(['compare', 'base.json'], dir)).status).toBe(2);
    expect((await cli(['compare', 'base.json', 'worse.json', '--threshold', 'nope'], dir)).status).toBe(2);
  });

  it('timeline and power', async () => {
    // Each step is McNemar p = 2 · 0.5^6 = 0.031; Holm over the 2 steps makes it 0.0625: no mark.
    const t = await cli(['timeline', '--metric', 'success_rate'], dir);
    expect(t.status).toBe(0);
    expect(t.stdout).toMatch(/^2026-01-08\s+v1\.1\.0\s+40\.0%$/m);
    expect(t.stdout).toMatch(/Success\s+█▁█/);
    const raw = await cli(['timeline', '--metric', 'success_rate', '--adjust', 'none'], dir);
    expect(raw.stdout).toMatch(/^2026-01-08\s+v1\.1\.0\s+40\.0% ▼$/m);
    expect(raw.stdout).toMatch(/^2026-01-15\s+v1\.2\.0\s+100\.0% ▲$/m);
    const p = await cli(['power', '--baseline', 'latest:lineage@1.1.0', '--effect', '0.2'], dir);
    expect(p.status).toBe(0);
    expect(p.stdout).toContain('Tasks needed to detect 0.2:');
  });
}, 60_000);
