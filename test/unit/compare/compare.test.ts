import { describe, expect, it } from 'vitest';
import { compareExperiments } from '../../../src/compare/compare.ts';
import type { MetricComparison } from '../../../src/compare/types.ts';
import { experimentOf } from '../../helpers/comparison.ts';

/**
 * Known answer. Accuracy per task (one epoch each):
 *   A: t1 .5, t2 .6, t3 .7, t4 .8, t5 .9     B: t1 .6, t2 .8, t3 .7, t4 1.0, t5 .9
 * Differences B - A: .1, .2, 0, .2, 0 -> mean 0.1; deviations 0, .1, -.1, .1, -.1, sum of squares
 * .04, sample variance .04/4 = .01, SD .1, SE = .1/√5 = 0.0447214, t = 2.23607 with 4 df:
 * scipy ttest_rel p = 0.0890093425000857; 95% CI 0.1 ± 2.776445 · 0.0447214 =
 * [-0.0241664, 0.2241664]. (The z test it replaces said p = 0.0253: "significant" on 5 tasks.)
 * Correlation: Σ dA·dB = .08, Σ dA² = Σ dB² = .1 -> r = 0.8. statsmodels TTestPower: MDE at 5
 * tasks = 0.1681997; tasks to detect 0.1 at SD .1: nobs 9.94 -> 10.
 */
const scoresA = [0.5, 0.6, 0.7, 0.8, 0.9];
const scoresB = [0.6, 0.8, 0.7, 1.0, 0.9];
const tasks = ['t1', 't2', 't3', 't4', 't5'];

function pair(options: { clusters?: Record<string, string> } = {}) {
  // success: A passes only t5; B passes all (b = 0, c = 4).
  const a = experimentOf(
    'exp-a',
    tasks.map((task, i) => ({
      task,
      score: scoresA[i]!,
      pass: task === 't5',
      cost: 2,
      hitl: 0,
      explanation: `A missed ${task}`,
    })),
    { version: '0.3.1', ...options },
  );
  const b = experimentOf(
    'exp-b',
    tasks.map((task, i) => ({
      task,
      score: scoresB[i]!,
      pass: true,
      cost: 1.5,
      hitl: task === 't1' ? 5 : 0,
    })),
    { version: '0.4.0', ...options },
  );
  return { a, b };
}

function metric(rows: readonly MetricComparison[], name: string): MetricComparison {
  const found = rows.find((m) => m.name === name);
  if (!found) throw new Error(`no row ${name}`);
  return found;
}

describe('compareExperiments', () => {
  it('computes the paired difference, SE, CI, p and correlation written above', () => {
    const { a, b } = pair();
    const comparison = compareExperiments([a, b]);
    const accuracy = metric(comparison.metrics, 'accuracy');
    const paired = accuracy.deltas[0]!.paired!;
    expect(paired.n).toBe(5);
    expect(paired.test).toBe('paired_t');
    expect(paired.df).toBe(4);
    expect(paired.mean_difference).toBeCloseTo(0.1, 10);
    expect(paired.stderr).toBeCloseTo(0.0447214, 6);
    expect(paired.ci95![0]).toBeCloseTo(-0.024166399820376647, 8);
    expect(paired.ci95![1]).toBeCloseTo(0.22416639982037667, 8);
    expect(paired.p_value).toBeCloseTo(0.0890093425000857, 12);
    expect(paired.significant).toBe(false);
    expect(paired.correlation).toBeCloseTo(0.8, 10);
    expect(paired.minimum_detectable_effect).toBeCloseTo(0.16819969659555575, 8);
    expect(paired.tasks_needed).toBe(10);
    expect(paired.mcnemar).toBeNull();
    // Value columns and the relative change: 0.7 -> 0.8 is +14.3%.
    expect(accuracy.values.map((v) => v.value)).toEqual([expect.closeTo(0.7, 10), expect.closeTo(0.8, 10)]);
    expect(accuracy.deltas[0]!.percent_label).toBe('+14.3%');
    expect(accuracy.deltas[0]!.is_improvement).toBe(true);
  });

  it('decides success_rate (one verdict per task) by McNemar: b = 0, c = 4 gives p = 2 · 1/16 = 0.125', () => {
    const { a, b } = pair();
    const success = metric(compareExperiments([a, b]).metrics, 'success_rate');
    const paired = success.deltas[0]!.paired!;
    expect(paired.mcnemar).toMatchObject({ b: 0, c: 4, p_value: 0.125 });
    expect(paired.test).toBe('mcnemar_exact');
    // The z test on diffs 1,1,1,1,0 (SE .2, z = 4) said p = 6.3e-5; the exact test decides.
    expect(paired.stderr).toBeCloseTo(0.2, 10);
    expect(paired.p_value).toBe(0.125);
    expect(paired.significant).toBe(false);
    // Conditional exact interval: Clopper–Pearson of 4 of 4 is [0.3976354, 1] -> (4/5)(2·lo - 1).
    expect(paired.ci95![0]).toBeCloseTo(0.8 * (2 * 0.3976353643835253 - 1), 8);
    expect(paired.ci95![1]).toBeCloseTo(0.8, 12);
    expect(success.deltas[0]!.percent_label).toBe('+400.0%');
  });

  it('is direction-aware: a drop in cost is an improvement, a rise in HITL a regression', () => {
    const { a, b } = pair();
    const rows = compareExperiments([a, b]).metrics;
    const cost = metric(rows, 'cost_per_task').deltas[0]!;
    expect(cost.percent_label).toBe('-25.0%');
    expect(cost).toMatchObject({ is_improvement: true, is_regression: false });
    // HITL: A = 0 on every task, B = 1 on average: safe at zero, "new", a regression.
    const hitl = metric(rows, 'hitl_unplanned').deltas[0]!;
    expect(hitl).toMatchObject({
      percent: null,
      percent_label: 'new',
      is_regression: true,
      is_improvement: false,
    });
    expect(hitl.delta).toBeCloseTo(1, 10);
  });

  it('lists flipped tasks with the failing side explanation', () => {
    const { a, b } = pair();
    const [p] = compareExperiments([a, b]).pairs;
    expect(p!.regressions).toEqual([]);
    expect(p!.improvements.map((t) => t.task_id)).toEqual(['t1', 't2', 't3', 't4']);
    expect(p!.improvements[0]).toMatchObject({
      baseline_pass_rate: 0,
      pass_rate: 1,
      explanation: 'contains: A missed t1',
    });
    const back = compareExperiments([b, a]).pairs[0]!;
    expect(back.regressions.map((t) => t.task_id)).toEqual(['t1', 't2', 't3', 't4']);
    expect(back.regressions[1]!.explanation).toBe('contains: A missed t2');
  });

  it('uses the CR1 clustered SE with t(G - 1) when tasks carry a cluster', () => {
    // Clusters {t1, t2} and {t3, t4, t5}. Residuals of the diffs (.1,.2,0,.2,0 around .1):
    // 0, .1 | -.1, .1, -.1; cluster sums .1 | -.1. CR1: G/(G-1) · Σ(Σe)²/n² = 2 · .02/25 = .0016
    // -> SE = 0.04, with t(1). (Miller's eq. 4 gave .0012 -> 0.0346.)
    const { a, b } = pair({ clusters: { t1: 'x', t2: 'x', t3: 'y', t4: 'y', t5: 'y' } });
    const paired = metric(compareExperiments([a, b]).metrics, 'accuracy').deltas[0]!.paired!;
    expect(paired.clustered).toBe(true);
    expect(paired.clusters).toBe(2);
    expect(paired.stderr).toBeCloseTo(0.04, 12);
    expect(paired).toMatchObject({ test: 'cluster_t', df: 1 });
  });

  it('pairs over the tasks both ran and takes per-task means over epochs', () => {
    // A: t1 epochs .2/.4 (mean .3), t2 .5; B: t1 .7 (one epoch), t2 .5, t3 .9 (only in B).
    const a = experimentOf('a', [
      { task: 't1', epoch: 0, score: 0.2 },
      { task: 't1', epoch: 1, score: 0.4 },
      { task: 't2', epoch: 0, score: 0.5 },
    ]);
    const b = experimentOf('b', [
      { task: 't1', score: 0.7 },
      { task: 't2', score: 0.5 },
      { task: 't3', score: 0.9 },
    ]);
    const comparison = compareExperiments([a, b], { metrics: ['accuracy'] });
    const delta = comparison.metrics[0]!.deltas[0]!;
    const paired = delta.paired!;
    expect(paired.tasks).toEqual(['t1', 't2']);
    expect(paired.mean_difference).toBeCloseTo((0.4 + 0) / 2, 10);
    expect(paired.test).toBe('paired_t'); // two attempts of t1 in A: rates, not verdicts
    // The change is over the shared tasks too: A .4 → B .6 there (B's own value is .7).
    expect(delta).toMatchObject({ basis: 'shared_tasks' });
    expect(delta.baseline_value).toBeCloseTo(0.4, 12);
    expect(delta.value).toBeCloseTo(0.6, 12);
    expect(comparison.pairs[0]!.only_in_candidate).toEqual(['t3']);
    expect(comparison.pairs[0]).toMatchObject({ shared_tasks: 2, total_tasks: 3 });
    expect(comparison.warnings.join('\n')).toMatch(
      /paired over 2 of 3 tasks \(0 only in the baseline, 1 only in the candidate\)/,
    );
  });

  it('warns about different suite versions and disjoint task sets', () => {
    const a = experimentOf('a', [{ task: 'x' }], { suiteHash: 'aaaaaaaaaaaaaaaa' });
    const b = experimentOf('b', [{ task: 'y' }], { suiteHash: 'bbbbbbbbbbbbbbbb' });
    const comparison = compareExperiments([a, b]);
    expect(comparison.warnings.some((w) => w.includes('different version of suite'))).toBe(true);
    expect(comparison.warnings.some((w) => w.includes('share no task'))).toBe(true);
    expect(comparison.metrics.every((m) => m.deltas[0]!.paired === null)).toBe(true);
  });

  it('orders rows like the seed, computes metrics that were not stored, and shows "n/a" for unknown ones', () => {
    const { a, b } = pair();
    const names = compareExperiments([a, b]).metrics.map((m) => m.name);
    expect(names).toEqual(['hitl_unplanned', 'cost_per_task', 'overall_score', 'success_rate', 'accuracy']);
    const extra = compareExperiments([a, b], { metrics: ['error_rate', 'no_such_metric'] });
    expect(extra.metrics[0]!.values.map((v) => v.value)).toEqual([0, 0]);
    expect(extra.metrics[1]!.values.map((v) => v.formatted_value)).toEqual(['n/a', 'n/a']);
    expect(extra.metrics[1]!.deltas[0]).toMatchObject({ percent: null, percent_label: 'n/a', paired: null });
  });

  it('labels columns by version, and compares a third experiment against A too', () => {
    const { a, b } = pair();
    const c = experimentOf(
      'exp-c',
      tasks.map((task) => ({ task, score: 0.7 })),
      { version: '0.5.0' },
    );
    const comparison = compareExperiments([a, b, c]);
    expect(comparison.experiments.map((e) => e.label)).toEqual(['v0.3.1', 'v0.4.0', 'v0.5.0']);
    expect(metric(comparison.metrics, 'accuracy').deltas).toHaveLength(2);
    expect(comparison.pairs.map((p) => p.experiment_id)).toEqual(['exp-b', 'exp-c']);
  });

  it('rejects fewer than two experiments and a bad alpha', () => {
    const { a } = pair();
    expect(() => compareExperiments([a])).toThrow(/at least two/);
    expect(() => compareExperiments([a, a], { alpha: 1.5 })).toThrow(/alpha/);
  });
});
