import { describe, expect, it } from 'vitest';
import { epochStandardError } from '../../../src/stats/clustered.ts';
import { mcnemarMinimumDetectableEffect, mcnemarPower } from '../../../src/stats/mcnemar-power.ts';
import { adjustPValues } from '../../../src/stats/multiplicity.ts';
import { pairedDifference } from '../../../src/stats/paired.ts';
import { pairedTest } from '../../../src/stats/paired-test.ts';
import { minimumDetectableEffect, pairedTPower, tasksNeeded } from '../../../src/stats/power.ts';
import { clopperPearsonInterval, wilsonInterval } from '../../../src/stats/proportion.ts';
import { comparePaired } from '../../../src/stats/significance.ts';
import { lineageTrend } from '../../../src/stats/trend.ts';
import { referenceCase, taskMeans } from '../../helpers/stats-reference.ts';

// Every expected number below comes from test/fixtures/stats-reference/reference.json, computed
// by reference.py with scipy 1.10.1 and statsmodels 0.13.5 from the same data.

function near(actual: number | null | undefined, expected: number, digits = 10) {
  expect(actual).not.toBeNull();
  expect(actual).toBeCloseTo(expected, digits);
}

// scipy's t.ppf (boost's inverse) is good to about 1e-9 relative — t.cdf of its 97.5% point at
// 39 df is 0.97499999955 — so intervals, which use it, are compared to 8 digits; p-values
// (scipy's stdtr, accurate to 1e-16) to 12.
function nearInterval(actual: readonly [number, number] | null, expected: [number, number], digits = 8) {
  expect(actual).not.toBeNull();
  near(actual?.[0], expected[0], digits);
  near(actual?.[1], expected[1], digits);
}

function pair(caseName: string, metric: string) {
  const c = referenceCase(caseName);
  const data = c.metrics?.[metric];
  if (data === undefined) throw new Error(`${caseName} has no metric ${metric}`);
  return { a: taskMeans(data.a), b: taskMeans(data.b), expected: c.expected[metric] };
}

function expectPairedT(
  actual: ReturnType<typeof pairedDifference>,
  expected: { [k: string]: number | string | number[] },
) {
  expect(actual.test).toBe(expected['test']);
  expect(actual.n).toBe(expected['n']);
  near(actual.mean_difference, expected['mean_difference'] as number);
  near(actual.stderr, expected['stderr'] as number);
  expect(actual.df).toBe(expected['df']);
  nearInterval(actual.ci95, expected['ci95'] as [number, number]);
  near(actual.p_value, expected['p_value'] as number, 12);
  near(actual.correlation, expected['correlation'] as number);
}

describe('paired tests against scipy / statsmodels', () => {
  it('binary, 48 tasks, discordant 5 / 14: exact McNemar decides (p 0.0636), not the t test', () => {
    const { a, b, expected } = pair('binary48', 'success_rate');
    const test = comparePaired(a, b, { kind: 'binary' });
    const e = expected.paired;
    expect(test.test).toBe('mcnemar_exact');
    expect(test.mcnemar).toMatchObject({ b: 5, c: 14 });
    near(test.p_value, e.p_value, 14);
    near(test.mcnemar?.mid_p_value, e.mcnemar.mid_p_value, 14);
    near(test.mean_difference, e.mean_difference, 14);
    nearInterval(test.ci95, e.ci95);
    expect(test.ci_method).toBe('mcnemar_conditional_exact');
    // The t test would have said p < 0.05; the exact test does not, and the interval agrees.
    expect(e.reference_paired_t_p).toBeLessThan(0.05);
    expect(test.significant).toBe(false);
    expect(test.ci95?.[0]).toBeLessThan(0);
    near(test.minimum_detectable_effect, e.minimum_detectable_effect, 6);
  });

  it('continuous correlated scores: paired t, t interval and t-based MDE', () => {
    const { a, b, expected } = pair('continuous', 'accuracy');
    const test = comparePaired(a, b);
    expectPairedT(test, expected.paired);
    near(test.minimum_detectable_effect, expected.paired.minimum_detectable_effect, 6);
    expect(test.tasks_needed).toBe(expected.paired.tasks_needed);
    expect(test.power_method).toBe('t');
  });

  it('epochs = 5: a t test on per-task pass rates, never a McNemar test of majority votes', () => {
    const { a, b, expected } = pair('epochs5', 'success_rate');
    const test = comparePaired(a, b, { kind: 'binary' });
    expect(test.test).toBe('paired_t'); // rates are not verdicts
    expectPairedT(test, expected.paired);
    near(test.minimum_detectable_effect, expected.paired.minimum_detectable_effect, 6);
    expect(test.tasks_needed).toBe(expected.paired.tasks_needed);
  });

  it('n = 3: t with 2 df (p 0.077), where z said p < 0.001', () => {
    const { a, b, expected } = pair('n3', 'accuracy');
    const test = pairedDifference(a, b);
    expectPairedT(test, expected.paired);
    expect(test.significant).toBe(false);
    expect(referenceCase('n3').expected.z_p_value_for_contrast).toBeLessThan(0.001);
  });

  it('all equal: p = 1, and an honest interval around 0 (not [0, 0])', () => {
    const { a, b, expected } = pair('all_equal', 'success_rate');
    const test = pairedTest(a, b, { kind: 'binary' });
    expect(test.p_value).toBe(1);
    nearInterval(test.ci95, expected.paired.ci95);
  });

  it('all flip one way: exact p 0.25, never p = 0', () => {
    const { a, b, expected } = pair('all_flip', 'success_rate');
    const test = pairedTest(a, b, { kind: 'binary' });
    expect(test.p_value).toBe(0.25);
    near(test.p_value, expected.paired.p_value, 14);
    nearInterval(test.ci95, expected.paired.ci95);
    expect(test.significant).toBe(false);
    // The same data read as scores: the differences do not vary, the sign test decides.
    const asScores = pairedTest(a, b, { kind: 'continuous' });
    expect(asScores).toMatchObject({ test: 'sign_test', p_value: 0.25, significant: false, ci95: null });
  });

  it.each(['exact', 'float_noise', 'six'])('constant shift (%s): the exact sign test decides', (label) => {
    const { a, b, expected } = pair('constant_shift', `accuracy_${label}`);
    const test = pairedDifference(a, b);
    expect(test.test).toBe('sign_test');
    near(test.p_value, expected.paired.p_value, 14);
    near(test.mean_difference, expected.paired.mean_difference, 12);
  });

  it('partial overlap: the 30 shared tasks decide, and they say B is better', () => {
    const { a, b, expected } = pair('partial_overlap', 'accuracy');
    const test = pairedDifference(a, b);
    expectPairedT(test, expected.paired);
    expect(test.only_in_a).toEqual(expected.only_in_a);
    expect(test.only_in_b).toEqual(expected.only_in_b);
    expect(expected.unpaired_all_task_delta).toBeLessThan(0); // the trap the headline fell into
    expect(test.ci95?.[0]).toBeGreaterThan(0);
  });

  it('lower is better: latency and cost per task', () => {
    for (const metric of ['latency', 'cost_per_task']) {
      const { a, b, expected } = pair('lower_is_better', metric);
      const test = comparePaired(a, b);
      expectPairedT(test, expected.paired);
      near(test.minimum_detectable_effect, expected.paired.minimum_detectable_effect, 6);
      expect(test.tasks_needed).toBe(expected.paired.tasks_needed);
    }
  });

  it('clustered: CR1 standard error with t(G - 1), as statsmodels cluster-robust OLS', () => {
    const c = referenceCase('clustered');
    const { a, b, expected } = pair('clustered', 'accuracy');
    const test = pairedDifference(a, b, { clusters: new Map(Object.entries(c.clusters ?? {})) });
    const e = expected.paired;
    expect(test.test).toBe('cluster_t');
    expect(test.clusters).toBe(10);
    expect(test.df).toBe(9);
    near(test.stderr, e.stderr, 12);
    nearInterval(test.ci95, e.ci95);
    near(test.p_value, e.p_value, 12);
  });
});

describe('intervals of one experiment', () => {
  it('Wilson and Clopper–Pearson intervals of rates', () => {
    const binary = referenceCase('binary48').expected.success_rate;
    nearInterval(wilsonInterval(25, 48), binary.a.ci95, 12);
    nearInterval(clopperPearsonInterval(25, 48), binary.a.clopper_pearson, 9);
    const twoOfThree = referenceCase('n3').expected.rate_2_of_3;
    nearInterval(wilsonInterval(2, 3), twoOfThree.ci95, 12);
    const threeOfThree = referenceCase('all_equal').expected.success_rate.a;
    nearInterval(wilsonInterval(3, 3), threeOfThree.ci95, 12);
    nearInterval(clopperPearsonInterval(3, 3), threeOfThree.clopper_pearson, 9);
    const zeroOfThree = referenceCase('all_equal').expected.error_rate_0_of_3;
    nearInterval(wilsonInterval(0, 3), zeroOfThree.ci95, 12);
  });

  it('epochs: the SE over task means equals statsmodels cluster-robust SE by task', () => {
    const c = referenceCase('epochs5');
    const trials = Object.entries(c.metrics?.['success_rate']?.a ?? {}).flatMap(([task, xs]) =>
      xs.map((value) => ({ task, value })),
    );
    const estimate = epochStandardError(trials);
    near(estimate.stderr, c.expected.success_rate.a.stderr_statsmodels_cluster_by_task, 12);
    const e = c.expected.success_rate.a;
    nearInterval(wilsonInterval(e.value * e.effective_n, e.effective_n), e.ci95, 12);
  });
});

describe('multiplicity against statsmodels multipletests', () => {
  it('20 null metrics: raw paired t p-values, Holm and Benjamini–Hochberg', () => {
    const c = referenceCase('null20');
    const raw = Object.keys(c.metrics ?? {}).map((name) => {
      const { a, b } = pair('null20', name);
      return pairedDifference(a, b).p_value;
    });
    raw.forEach((p, i) => {
      near(p, c.expected.raw_p[i], 12);
    });
    adjustPValues(raw, 'holm').forEach((p, i) => {
      near(p, c.expected.holm[i], 12);
    });
    adjustPValues(raw, 'bh').forEach((p, i) => {
      near(p, c.expected.bh[i], 12);
    });
    expect(adjustPValues(raw, 'none')).toEqual(raw);
  });
});

describe('lineage trend', () => {
  it('mean of per-task slopes with t(G - 1) equals scipy, and the fixed-effects slope of statsmodels', () => {
    const c = referenceCase('timeline');
    const versions = (c.versions ?? []).map(taskMeans);
    const trend = lineageTrend(versions);
    const e = c.expected.slope;
    near(trend.slope, e.slope, 12);
    near(trend.slope, e.fixed_effects_slope_statsmodels, 12);
    near(trend.stderr, e.stderr, 12);
    expect(trend.df).toBe(e.df);
    nearInterval(trend.ci95, e.ci95);
    near(trend.p_value, e.p_value, 10);
    const steps = versions.slice(1).map((v, i) => pairedDifference(versions[i]!, v).p_value);
    steps.forEach((p, i) => {
      near(p, c.expected.step_p[i], 12);
    });
    adjustPValues(steps, 'holm').forEach((p, i) => {
      near(p, c.expected.step_p_holm[i], 12);
    });
  });
});

describe('power against statsmodels TTestPower and an exact McNemar enumeration', () => {
  const e = referenceCase('power').expected;

  it('tasks needed and MDE of the paired t test', () => {
    for (const row of e.t_tasks) {
      expect(tasksNeeded({ effect: row.effect, sd: row.sd, alpha: row.alpha, power: row.power })).toBe(
        row.tasks,
      );
    }
    // statsmodels' solve_power stops at about 1e-7: its MDE at 10 tasks has power 0.8000004.
    for (const row of e.t_mde) near(minimumDetectableEffect({ tasks: row.tasks, sd: row.sd }), row.mde, 6);
    near(pairedTPower({ tasks: 10, effectSize: 1 }), e.t_power_10_tasks_d1, 9);
  });

  it('exact McNemar power', () => {
    const m = e.mcnemar;
    near(mcnemarPower({ tasks: m.tasks, p10: m.p10, p01: m.p01 }), m.power, 9);
    near(mcnemarPower({ tasks: 300, p10: m.p10, p01: m.p01 }), m.power_at_300, 9);
    const binary = referenceCase('binary48').expected.success_rate.paired;
    near(mcnemarPower({ tasks: 48, p10: 5 / 48, p01: 14 / 48 }), binary.power_at_observed, 9);
    near(
      mcnemarMinimumDetectableEffect({ tasks: 48, discordance: 19 / 48 }),
      binary.minimum_detectable_effect,
      6,
    );
  });
});
