import { describe, expect, it } from 'vitest';
import { pairedDifference, twoSidedPValue } from '../../../src/stats/paired.ts';

// A and B on tasks t1..t4 (t5 only in B). Differences B - A: .2 .1 .1 .3
// mean .175; deviations .025 -.075 -.075 .125, squares sum .0275; s² = .0275/3 = .0091666…
// SE = sqrt(.0091666/4) = 0.047871355387816…; z = .175 / SE = 3.65563077507…
// p (z) = 2(1 - Φ(3.6556)) = 0.000256550383…; p (t, 3 df) = 0.0353528470025…
const a = new Map([
  ['t1', 0.5],
  ['t2', 0.8],
  ['t3', 0.2],
  ['t4', 0.6],
]);
const b = new Map([
  ['t1', 0.7],
  ['t2', 0.9],
  ['t3', 0.3],
  ['t4', 0.9],
  ['t5', 1],
]);

describe('pairedDifference', () => {
  it('matches the hand computation (z, on request)', () => {
    const result = pairedDifference(a, b, { method: 'z' });
    expect(result.tasks).toEqual(['t1', 't2', 't3', 't4']);
    expect(result.only_in_b).toEqual(['t5']);
    expect(result.only_in_a).toEqual([]);
    expect(result.n).toBe(4);
    expect(result.mean_a).toBeCloseTo(0.525, 14);
    expect(result.mean_b).toBeCloseTo(0.7, 14);
    expect(result.mean_difference).toBeCloseTo(0.175, 14);
    expect(result.stderr).toBeCloseTo(0.0478713553878169, 14);
    expect(result.ci95?.[0]).toBeCloseTo(0.175 - 1.959963984540054 * 0.0478713553878169, 12);
    expect(result.ci95?.[1]).toBeCloseTo(0.175 + 1.959963984540054 * 0.0478713553878169, 12);
    expect(result.p_value).toBeCloseTo(0.00025655038305572936, 12);
    expect(result.significant).toBe(true);
    // Pearson of A = .5 .8 .2 .6 and B = .7 .9 .3 .9: 0.9428090415820634 (= 2√2/3)
    expect(result.correlation).toBeCloseTo(0.9428090415820634, 12);
    expect(result.clustered).toBe(false);
  });

  it('uses t with n - 1 df by default', () => {
    const result = pairedDifference(a, b);
    expect(result.test).toBe('paired_t');
    expect(result.df).toBe(3);
    expect(result.p_value).toBeCloseTo(0.03535284700251737, 10);
    expect(result.ci95?.[0]).toBeCloseTo(0.175 - 3.1824463052837078 * 0.0478713553878169, 10);
  });

  it('clusters the differences', () => {
    // Clusters x = {t1, t2}, y = {t3, t4}: residual sums -.05 | .05 -> Σ = .005; Σe² = .0275
    // Miller: .0275/3/4 + (.005 - .0275)/16 = .000885416…; SE = 0.0297559517855952
    // CR1 (default): 2/1 · .005/16 = .000625 -> SE .025, with t(1)
    const clusters = new Map([
      ['t1', 'x'],
      ['t2', 'x'],
      ['t3', 'y'],
      ['t4', 'y'],
    ]);
    const result = pairedDifference(a, b, { clusters });
    expect(result.clustered).toBe(true);
    expect(result.clusters).toBe(2);
    expect(result.stderr).toBeCloseTo(0.025, 12);
    expect(result).toMatchObject({ test: 'cluster_t', df: 1 });
    const miller = pairedDifference(a, b, { clusters, correction: 'miller', method: 'z' });
    expect(miller.stderr).toBeCloseTo(0.029755951785595203, 12);
    expect(miller.test).toBe('cluster_z');
  });

  it('reports no difference between identical runs', () => {
    const result = pairedDifference(a, a);
    expect(result.mean_difference).toBe(0);
    expect(result.stderr).toBe(0);
    expect(result.p_value).toBe(1);
    expect(result.test).toBe('sign_test');
    expect(result.significant).toBe(false);
  });

  it('decides a constant non-zero difference by the exact sign test, never p = 0', () => {
    const fail = new Map([
      ['t1', 0],
      ['t2', 0],
      ['t3', 0],
    ]);
    const pass = new Map([
      ['t1', 1],
      ['t2', 1],
      ['t3', 1],
    ]);
    const result = pairedDifference(fail, pass);
    expect(result.mean_difference).toBe(1);
    // 3 of 3 the same way: 2 · 0.5³ = 0.25 (the z test said 0, "significant").
    expect(result).toMatchObject({ test: 'sign_test', p_value: 0.25, significant: false });
    // 3 tasks are too few for a 95% distribution-free interval.
    expect(result.ci95).toBeNull();
    expect(result.correlation).toBeNull();
  });

  it('handles no overlap and a single shared task without NaN', () => {
    const none = pairedDifference(new Map([['x', 1]]), new Map([['y', 1]]));
    expect(none).toMatchObject({ n: 0, mean_difference: null, stderr: null, ci95: null, p_value: null });
    expect(none.only_in_a).toEqual(['x']);
    const one = pairedDifference(new Map([['x', 0]]), new Map([['x', 1]]));
    expect(one).toMatchObject({ n: 1, mean_difference: 1, stderr: null, ci95: null, p_value: null });
    expect(one.significant).toBe(false);
  });

  it('twoSidedPValue matches the normal and t tails', () => {
    // z = 1.959963984540054 -> p = 0.05; t(1) = 12.706204736174694 -> p = 0.05
    expect(twoSidedPValue(1.959963984540054, null)).toBeCloseTo(0.05, 12);
    expect(twoSidedPValue(-12.706204736174694, 1)).toBeCloseTo(0.05, 12);
    expect(twoSidedPValue(0, null)).toBe(1);
  });
});
