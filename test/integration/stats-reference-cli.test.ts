import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comparison, MetricComparison } from '../../src/compare/types.ts';
import type { Experiment } from '../../src/core/experiment.ts';
import { experimentToJson } from '../../src/store/index.ts';
import { referenceExperiments } from '../helpers/reference-experiments.ts';
// Drives the built CLI (`npx tsdown` first; `npm test` does it in pretest).
import { cli } from '../helpers/run-cli.ts';
import { referenceCase } from '../helpers/stats-reference.ts';

/**
 * The cases of issue 9's "What is wrong today", each through the built CLI on data whose answer
 * scipy/statsmodels computed (test/fixtures/stats-reference/reference.json). Each assertion
 * failed on the code before the fix: the numbers it checks were z-based, Wald, majority-vote or
 * whole-experiment ones.
 */

let dir = '';
const files = new Map<string, string>();

async function save(name: string, experiment: Experiment): Promise<string> {
  const file = `${name}.json`;
  await writeFile(join(dir, file), experimentToJson(experiment));
  files.set(name, file);
  return file;
}

async function pairFiles(name: string, options: Parameters<typeof referenceExperiments>[1] = {}) {
  const { a, b } = referenceExperiments(name, options);
  return [await save(`${name}-a`, a), await save(`${name}-b`, b)] as const;
}

async function compareJson(args: readonly string[]): Promise<Comparison> {
  const r = await cli(['compare', ...args, '--format', 'json'], dir);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Comparison;
}

function row(comparison: Comparison, name: string): MetricComparison {
  const found = comparison.metrics.find((m) => m.name === name);
  if (found === undefined) throw new Error(`no metric ${name}`);
  return found;
}

const near = (actual: number | null | undefined, expected: number, digits = 9) => {
  expect(actual).not.toBeNull();
  expect(actual).toBeCloseTo(expected, digits);
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-stats-ref-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('issue 9 through the built CLI, against scipy/statsmodels', () => {
  it('1. partial overlap: the 30 shared tasks decide direction, delta, interval, p and the gate', async () => {
    const [a, b] = await pairFiles('partial_overlap', { metrics: ['accuracy'] });
    const e = referenceCase('partial_overlap').expected.accuracy;
    const c = await compareJson([a, b]);
    const d = row(c, 'accuracy').deltas[0]!;
    expect(d.basis).toBe('shared_tasks');
    near(d.delta, e.paired.mean_difference, 12);
    expect(d).toMatchObject({ is_improvement: true, is_regression: false });
    near(d.paired?.ci95?.[0], e.paired.ci95[0], 8);
    near(d.paired?.ci95?.[1], e.paired.ci95[1], 8);
    near(d.paired?.p_value, e.paired.p_value, 20);
    expect(c.pairs[0]).toMatchObject({ shared_tasks: 30, total_tasks: 50 });
    // The gate that used to exit 1 ("25.1% worse … significant regressions only").
    const gate = await cli(
      [
        'compare',
        a,
        b,
        '--fail-on-regression',
        '--threshold',
        'accuracy:max_regression=0.05,require_significant=true',
      ],
      dir,
    );
    expect(gate.status).toBe(0);
    expect(gate.stdout).toContain(
      'v1.1.0 vs v1.0.0: paired over 30 of 50 tasks (10 only in v1.0.0, 10 only in v1.1.0)',
    );
    expect(gate.stdout).toMatch(
      /^accuracy\s+45\.7%\s+61\.1%\s+\+33\.8%\s+\+15\.4 pp\s.*▲ significant improvement$/m,
    );
    expect(gate.stdout).not.toContain('significant regression');
  });

  it('2. all flip one way on 3 tasks: exact p = 0.25, never p = 0', async () => {
    const [a, b] = await pairFiles('all_flip', { metrics: ['success_rate'] });
    const e = referenceCase('all_flip').expected.success_rate;
    const d = row(await compareJson([a, b]), 'success_rate').deltas[0]!;
    expect(d.paired).toMatchObject({ test: 'mcnemar_exact', p_value: 0.25, significant: false });
    near(d.paired?.ci95?.[0], e.paired.ci95[0], 9);
    // 0 of 3 and 3 of 3: Wilson intervals, not zero-width [0, 0] and [1, 1].
    near(row(await compareJson([a, b]), 'success_rate').values[0]?.ci95?.[1], e.a.ci95[1], 12);
  });

  it('3. three tasks: t with 2 df (not z), and a small-sample warning', async () => {
    const [a, b] = await pairFiles('n3', { metrics: ['accuracy'] });
    const e = referenceCase('n3').expected.accuracy.paired;
    const d = row(await compareJson([a, b]), 'accuracy').deltas[0]!;
    expect(d.paired).toMatchObject({ test: 'paired_t', df: 2, significant: false });
    near(d.paired?.p_value, e.p_value, 12);
    near(d.paired?.minimum_detectable_effect, e.minimum_detectable_effect, 6);
    const text = await cli(['compare', a, b], dir);
    expect(text.stdout).not.toContain('significant improvement');
    expect(text.stdout).toMatch(/warning: .*fewer than 10 tasks per test: p-values come from exact tests/);
    expect(text.stdout).toContain('accuracy: paired t test, 2 df, over 3 shared tasks');
  });

  it('4. binary, 48 tasks, discordant 5 / 14: exact McNemar p 0.0636 decides, not z/t p < 0.05', async () => {
    const [a, b] = await pairFiles('binary48', { metrics: ['success_rate'] });
    const e = referenceCase('binary48').expected.success_rate;
    const m = row(await compareJson([a, b]), 'success_rate');
    const p = m.deltas[0]!.paired!;
    expect(p.test).toBe('mcnemar_exact');
    near(p.p_value, e.paired.p_value, 14);
    expect(p.significant).toBe(false);
    near(p.ci95?.[0], e.paired.ci95[0], 9);
    near(p.ci95?.[1], e.paired.ci95[1], 9);
    near(p.minimum_detectable_effect, e.paired.minimum_detectable_effect, 6);
    // 6. Wilson intervals of the two rates.
    near(m.values[0]?.ci95?.[0], e.a.ci95[0], 12);
    near(m.values[1]?.ci95?.[1], e.b.ci95[1], 12);
  });

  it('5. twenty null metrics: raw and Holm-adjusted p as statsmodels multipletests', async () => {
    const names = Object.keys(referenceCase('null20').metrics ?? {});
    const [a, b] = await pairFiles('null20', {
      metrics: names.map((evaluator) => ({ name: 'evaluator_score', options: { evaluator } })),
    });
    const e = referenceCase('null20').expected;
    const c = await compareJson([a, b]);
    names.forEach((n, i) => {
      const p = row(c, `evaluator_score:${n}`).deltas[0]!.paired!;
      near(p.p_value, e.raw_p[i], 12);
      near(p.p_adjusted, e.holm[i], 12);
      expect(p.significant).toBe(false);
    });
    // Raw p 0.045 on m03 is below α but not a finding after Holm.
    expect(row(c, 'evaluator_score:m03').deltas[0]!.paired!.significant_unadjusted).toBe(true);
    const bh = await compareJson([a, b, '--adjust', 'bh']);
    names.forEach((n, i) => {
      near(row(bh, `evaluator_score:${n}`).deltas[0]!.paired!.p_adjusted, e.bh[i], 12);
    });
  });

  it('7. epochs = 5: a t test on per-task pass rates, not McNemar on majority votes', async () => {
    const [a, b] = await pairFiles('epochs5', { metrics: ['success_rate'] });
    const e = referenceCase('epochs5').expected.success_rate;
    const m = row(await compareJson([a, b]), 'success_rate');
    const p = m.deltas[0]!.paired!;
    expect(p).toMatchObject({ test: 'paired_t', df: 39, mcnemar: null });
    near(p.p_value, e.paired.p_value, 12);
    near(m.values[0]?.ci95?.[0], e.a.ci95[0], 12);
  });

  it('8. one unit per row: the cost total states its difference and interval as totals', async () => {
    const [a, b] = await pairFiles('lower_is_better', { metrics: ['latency', 'cost_per_task', 'cost'] });
    const e = referenceCase('lower_is_better').expected;
    const c = await compareJson([a, b]);
    const latency = row(c, 'latency').deltas[0]!;
    near(latency.paired?.p_value, e.latency.paired.p_value, 12);
    expect(latency).toMatchObject({ is_improvement: true });
    const perTask = row(c, 'cost_per_task').deltas[0]!;
    near(perTask.paired?.mean_difference, e.cost_per_task.paired.mean_difference, 12);
    const total = row(c, 'cost');
    expect(total.aggregate).toBe('sum');
    near(total.deltas[0]!.delta, e.cost_total.difference, 12);
    near(total.deltas[0]!.paired?.mean_difference, e.cost_total.difference, 12);
    near(total.deltas[0]!.paired?.ci95?.[0], e.cost_total.ci95[0], 8);
    near(total.deltas[0]!.paired?.p_value, e.cost_total.p_value, 12);
    const text = await cli(
      ['compare', files.get('lower_is_better-a')!, files.get('lower_is_better-b')!],
      dir,
    );
    expect(text.stdout).toMatch(
      /^Total cost over 60 shared tasks: \$1\.12 → \$1\.03 \(-\$0\.0966, 95% CI \[-\$0\.163, -\$0\.0302\]/m,
    );
    expect(text.stdout).not.toMatch(/^cost\s/m);
  });

  it('9. clustered tasks: CR1 with t(G - 1)', async () => {
    const [a, b] = await pairFiles('clustered', { metrics: ['accuracy'] });
    const e = referenceCase('clustered').expected.accuracy.paired;
    const p = row(await compareJson([a, b]), 'accuracy').deltas[0]!.paired!;
    expect(p).toMatchObject({ test: 'cluster_t', df: 9, clusters: 10 });
    near(p.stderr, e.stderr, 12);
    near(p.p_value, e.p_value, 12);
  });

  it('10. power: t-based tasks, epochs as run, the correlation from a pair, refusal at zero variance', async () => {
    const power = referenceCase('power').expected;
    for (const row of power.t_tasks) {
      const args = ['power', '--sd', String(row.sd), '--effect', String(row.effect), '--format', 'json'];
      args.push('--alpha', String(row.alpha), '--power', String(row.power));
      const r = JSON.parse((await cli(args, dir)).stdout);
      expect(r.plan.tasks).toBe(row.tasks);
    }
    const [a, b] = [files.get('epochs5-a')!, files.get('epochs5-b')!];
    const e = referenceCase('epochs5').expected.power;
    const base = JSON.parse(
      (await cli(['power', '--baseline', a, '--effect', '0.1', '--format', 'json'], dir)).stdout,
    );
    expect(base.plan).toMatchObject({ epochs: 5, tasks: e.tasks_at_5_epochs_rho0 });
    near(base.baseline_variance.between, e.baseline_between, 12);
    const pair = JSON.parse(
      (await cli(['power', '--baseline', a, '--from', b, '--effect', '0.1', '--format', 'json'], dir)).stdout,
    );
    expect(pair).toMatchObject({ source: 'pair', correlation_source: 'observed' });
    expect(pair.plan.tasks).toBe(e.tasks_at_5_epochs_from_pair);
    near(pair.paired_variance.between, e.observed_between, 12);
    near(pair.paired_variance.within, e.observed_within, 12);
    const text = await cli(['power', '--baseline', a, '--effect', '0.1'], dir);
    expect(text.stdout).toContain(
      `Tasks needed to detect 0.1: ${e.tasks_at_5_epochs_rho0} (at 5 epochs per task)`,
    );
    // No unplanned HITL on any task: nothing varies, so there is nothing to plan from (was "1 task").
    const flat = await cli(['power', '--baseline', a, '--metric', 'hitl_unplanned', '--effect', '1'], dir);
    expect(flat.status).toBe(1);
    expect(flat.stderr).toContain('hitl_unplanned does not vary');
  });
});
