import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/main.ts';
import { parseThresholdArg } from '../../../src/cli/threshold-arg.ts';
import { experimentToJson, openStore } from '../../../src/store/index.ts';
import { experimentOf } from '../../helpers/comparison.ts';

class Sink extends Writable {
  text = '';
  isTTY = false;
  override _write(chunk: unknown, _encoding: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    done();
  }
}

let dir = '';
function io(): CliIO & { stdout: Sink; stderr: Sink } {
  return { stdout: new Sink(), stderr: new Sink(), env: { NO_COLOR: '1' }, cwd: dir, debug: false };
}

async function run(args: string[]) {
  const streams = io();
  const status = await runCli(args, streams);
  return { status, stdout: streams.stdout.text, stderr: streams.stderr.text };
}

const tasks = ['t1', 't2', 't3', 't4', 't5', 't6'];
// v1: all pass at score .9, cost $2. v2: t1, t2 fail (score .5), cost $1.5 -> accuracy drops 0.9 -> 0.767.
const v1 = experimentOf(
  '01JV1AAAA',
  tasks.map((task) => ({ task, score: 0.9, cost: 2, hitl: 1 })),
  {
    version: '0.1.0',
    createdAt: '2026-03-01T00:00:00.000Z',
  },
);
const v2 = experimentOf(
  '01JV2BBBB',
  tasks.map((task) => ({
    task,
    pass: !['t1', 't2'].includes(task),
    score: ['t1', 't2'].includes(task) ? 0.5 : 0.9,
    cost: 1.5,
    hitl: 1,
    ...(task === 't1' ? { explanation: 'expected "signup works"' } : {}),
  })),
  { version: '0.2.0', createdAt: '2026-03-15T00:00:00.000Z' },
);
// v3: like v1 again.
const v3 = experimentOf(
  '01JV3CCCC',
  tasks.map((task) => ({ task, score: 0.9, cost: 1, hitl: 0 })),
  {
    version: '0.3.0',
    createdAt: '2026-04-01T00:00:00.000Z',
  },
);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-compare-cmd-'));
  const store = await openStore(join(dir, '.harnesseval', 'harnesseval.db'));
  for (const e of [v1, v2, v3]) await store.createExperiment(e);
  await store.close();
  await writeFile(join(dir, 'v1.json'), experimentToJson(v1));
  await writeFile(join(dir, 'v2.json'), experimentToJson(v2));
});

describe('compare command', () => {
  it('prints the seed table with statistics and flipped tasks (ids, prefixes and latest:)', async () => {
    const r = await run(['compare', '01JV1', 'latest:lineage@0.2.0']);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Comparison: lineage v0.1.0 vs v0.2.0');
    expect(lines[1]).toBe('Suite: known-suite');
    expect(lines[2]).toBe('v0.2.0 vs v0.1.0: paired over 6 of 6 tasks');
    expect(r.stdout).toMatch(/^\s+v0\.1\.0\s+v0\.2\.0\s+delta\s+diff\s+95% CI\s+p\s+p Holm\s+test\s+note$/m);
    expect(r.stdout).toMatch(/^cost_per_task\s+\$2\.00\s+\$1\.50\s+-25\.0%/m);
    expect(r.stdout).toMatch(
      /^success_rate\s+100\.0%\s+66\.7%\s+-33\.3%\s+-33\.3 pp\s+\[.*\]\s+0\.500\s+\S+\s+McNemar\s/m,
    );
    expect(r.stdout).toContain(
      'success_rate: McNemar exact test on 6 shared tasks: 2 pass→fail, 0 fail→pass (mid-p 0.250, shown only)',
    );
    // A count that happens to be 0 or 1 is not a pass/fail verdict.
    expect(r.stdout).toMatch(/^hitl_unplanned\s.*\s(sign|t\(5\))\s/m);
    expect(r.stdout).toContain('Regressions (v0.2.0: pass → fail): 2');
    expect(r.stdout).toContain('✗ t1  100% → 0%  contains: expected "signup works"');
  });

  it('reads exported JSON files and writes markdown and json', async () => {
    const md = await run(['compare', 'v1.json', 'v2.json', '--format', 'markdown']);
    expect(md.status).toBe(0);
    expect(md.stdout).toContain('### HarnessEval comparison: v0.1.0 → v0.2.0');
    expect(md.stdout.split('\n').length).toBeLessThanOrEqual(60);
    const json = await run(['compare', 'v1.json', 'v2.json', '-o', 'out/c.json']);
    expect(json.stdout).toBe('wrote json comparison to out/c.json\n');
    const parsed = JSON.parse(await readFile(join(dir, 'out', 'c.json'), 'utf8'));
    expect(parsed.experiments.map((e: { id: string }) => e.id)).toEqual(['01JV1AAAA', '01JV2BBBB']);
    expect(parsed.pairs[0].regressions).toHaveLength(2);
  });

  it('--fail-on-regression exits 1 listing each violation; 0 without the flag', async () => {
    const rule = ['--threshold', 'accuracy:max_regression=0.05'];
    const without = await run(['compare', 'v1.json', 'v2.json', ...rule]);
    expect(without.status).toBe(0);
    expect(without.stdout).toContain('Regression rules broken: 1');
    const gated = await run(['compare', 'v1.json', 'v2.json', ...rule, '--fail-on-regression']);
    expect(gated.status).toBe(1);
    expect(gated.stderr).toMatch(
      /^regression: accuracy max_regression threshold=0\.05 actual=0\.76\d* \(01JV2BBBB\): accuracy 90\.0% → 76\.7% over 6 shared tasks is 14\.8% worse/m,
    );
    // Improvements never fail the gate.
    expect((await run(['compare', 'v1.json', '01JV3', ...rule, '--fail-on-regression'])).status).toBe(0);
  });

  it('with --fail-on-regression and no rules, only a significant regression fails', async () => {
    // v1 -> v2: accuracy diffs -.4, -.4, 0, 0, 0, 0: mean -.133, SE .0843, t(5) p = .175 -> not significant.
    const r = await run(['compare', 'v1.json', 'v2.json', '--fail-on-regression']);
    expect(r.status).toBe(0);
    const strict = await run(['compare', 'v1.json', 'v2.json', '--fail-on-regression', '--alpha', '0.2']);
    expect(strict.status).toBe(1);
    expect(strict.stderr).toContain('regression: accuracy max_regression');
  });

  it('reads regression rules from --suite FILE; --threshold overrides them per key', async () => {
    await writeFile(
      join(dir, 'bench.yaml'),
      [
        'version: "1.0"',
        'name: known-suite',
        'evaluators:',
        '  - name: contains',
        'thresholds:',
        '  accuracy:',
        '    max_regression: 0.05',
        'tests:',
        '  - id: t1',
        '    input: hi',
        '    expected: hi',
        '',
      ].join('\n'),
    );
    const gated = await run([
      'compare',
      'v1.json',
      'v2.json',
      '--suite',
      'bench.yaml',
      '--fail-on-regression',
    ]);
    expect(gated.stderr).toMatch(/^regression: accuracy max_regression threshold=0\.05 /m);
    expect(gated.status).toBe(1);
    const relaxed = await run([
      'compare',
      'v1.json',
      'v2.json',
      '--suite',
      'bench.yaml',
      '--threshold',
      'accuracy:max_regression=0.5',
      '--fail-on-regression',
    ]);
    expect(relaxed.status).toBe(0);
    expect((await run(['compare', 'v1.json', 'v2.json', '--suite', 'missing.yaml'])).status).toBe(1);
  });

  it('an ambiguous id prefix is an error naming the matches', async () => {
    const r = await run(['compare', '01JV', '01JV2']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('"01JV" matches several experiments');
  });

  it('renders a self-contained HTML page (-o FILE.html)', async () => {
    const r = await run(['compare', 'v1.json', 'v2.json', '-o', 'out/c.html']);
    expect(r.status).toBe(0);
    const html = await readFile(join(dir, 'out', 'c.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<title>Comparison: v0.1.0 vs v0.2.0</title>');
    expect(html).toContain('contains: expected &quot;signup works&quot;');
    const timeline = await run(['timeline', '--format', 'html']);
    expect(timeline.stdout).toContain('<svg');
  });

  it('exits 2 on usage errors', async () => {
    expect((await run(['compare', 'v1.json'])).status).toBe(2);
    expect((await run(['compare', 'v1.json', 'v2.json', '--threshold', 'accuracy'])).status).toBe(2);
    expect((await run(['compare', 'v1.json', 'v2.json', '--threshold', 'accuracy:bogus=1'])).status).toBe(2);
    expect((await run(['compare', 'v1.json', 'v2.json', '--format', 'pdf'])).status).toBe(2);
    expect((await run(['compare', 'v1.json', 'latest:'])).status).toBe(2);
  });

  it('exits 1 for an unknown experiment or harness', async () => {
    const r = await run(['compare', 'v1.json', 'latest:nobody']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('no completed experiment of harness "nobody"');
    expect((await run(['compare', 'v1.json', 'zzz'])).status).toBe(1);
  });
});

describe('timeline command', () => {
  it('shows the lineage in version order with sparklines; 6 tasks cannot survive Holm over 4 steps', async () => {
    const r = await run(['timeline', '--metric', 'accuracy', '--metric', 'cost_per_task']);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Timeline: lineage');
    expect(lines[3]).toMatch(/^Date\s+Version\s+Accuracy\s+Cost\/task$/);
    expect(lines.slice(4, 7).map((l) => l.split(/\s+/)[1])).toEqual(['v0.1.0', 'v0.2.0', 'v0.3.0']);
    // Cost drops on every task each version: the exact sign test gives 2 · 0.5^6 = 0.031 per step,
    // and Holm over the 4 step tests of the table 0.125: no mark.
    expect(lines[5]).toMatch(/\$1\.50$/);
    const json = JSON.parse(
      (await run(['timeline', '--metric', 'accuracy', '--metric', 'cost_per_task', '--format', 'json']))
        .stdout,
    );
    expect(json.points[1].cells[1].change).toMatchObject({
      p_value: 0.03125,
      p_adjusted: 0.125,
      significant: false,
      test: 'sign_test',
    });
    expect(r.stdout).toMatch(/Cost\/task\s+█▅▁\s+\$2\.00 → \$1\.00\s+lower is better/);
  });

  it('json and markdown; an unknown harness is exit 1', async () => {
    const json = JSON.parse((await run(['timeline', '--harness', 'lineage', '--format', 'json'])).stdout);
    expect(json.points).toHaveLength(3);
    const md = await run(['timeline', '--format', 'markdown', '--metric', 'accuracy']);
    expect(md.stdout).toContain('| Date | Version | Accuracy |');
    expect((await run(['timeline', '--harness', 'nobody'])).status).toBe(1);
  });
});

describe('power command', () => {
  it('plans from a given SD and from a baseline', async () => {
    const sd = await run(['power', '--sd', '0.3', '--effect', '0.1']);
    expect(sd.status).toBe(0);
    // statsmodels TTestPower: nobs 72.58 -> 73 (the normal approximation said 71).
    expect(sd.stdout).toContain('Tasks needed to detect 0.1: 73 (at 1 epoch per task)');
    expect(sd.stdout).toContain('Test planned for: paired t test (noncentral t power)');
    const base = await run(['power', '--baseline', '01JV2', '--metric', 'accuracy', '--format', 'json']);
    expect(base.status).toBe(0);
    const report = JSON.parse(base.stdout);
    expect(report.baseline_id).toBe('01JV2BBBB');
    // Accuracy .5, .5, .9 x4: variance = 0.16 · (2·4/6) / 5 ... = 0.0426667; paired doubles it.
    expect(report.paired_variance.between).toBeCloseTo(2 * 0.0426667, 5);
    expect(report.plan.tasks).toBe(6);
  });

  it('usage errors exit 2', async () => {
    expect((await run(['power'])).status).toBe(2);
    expect((await run(['power', '--sd', '0.3'])).status).toBe(2);
    expect((await run(['power', '--sd', '-1', '--effect', '0.1'])).status).toBe(2);
    expect((await run(['power', '--sd', '0.3', '--baseline', 'x'])).status).toBe(2);
  });
});

describe('parseThresholdArg', () => {
  it('parses and merges rules; the metric name may contain a colon', () => {
    let rules = parseThresholdArg('success_rate:max_regression=0.05,require_significant=true');
    rules = parseThresholdArg('success_rate:minimum=0.5', rules);
    rules = parseThresholdArg('evaluator_score:regex:minimum=0.8', rules);
    expect(rules).toEqual({
      success_rate: { max_regression: 0.05, require_significant: true, minimum: 0.5 },
      'evaluator_score:regex': { minimum: 0.8, require_significant: false },
    });
  });
  it('rejects bad syntax, keys and values', () => {
    expect(() => parseThresholdArg('x=1')).toThrow(/METRIC:KEY=VALUE/);
    expect(() => parseThresholdArg('x:minimum=abc')).toThrow(/number/);
    expect(() => parseThresholdArg('x:require_significant=yes')).toThrow(/true or false/);
    expect(() => parseThresholdArg('x:max_regression=-1')).toThrow();
    expect(() => parseThresholdArg('x:minimum=2,maximum=1')).toThrow(/minimum/);
  });
});
