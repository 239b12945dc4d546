import { describe, expect, it } from 'vitest';
import { perEpochValues, powerFromBaseline, powerFromSd } from '../../../src/compare/power-plan.ts';
import { experimentOf } from '../../helpers/comparison.ts';

/**
 * Baseline: 4 tasks x 2 epochs of pass/fail. t1 [1,1], t2 [1,0], t3 [0,0], t4 [1,0].
 * Within: task variances 0, .5, 0, .5 -> σ²_w = .25. Task means 1, .5, 0, .5: variance 1/6;
 * between = 1/6 - .25/2 = 1/24. Paired (ρ = 0): ω² = 2/24 = 1/12, within = 2 · .25 = .5.
 * Expected tasks: statsmodels TTestPower (noncentral t) on SD √(ω² + within/K):
 *  - effect .2, 1 epoch: nobs 116.40 -> 117 tasks; 2 epochs (as the baseline ran): 67.35 -> 68;
 *    4 epochs: 42.84 -> 43
 *  - 4 tasks at 2 epochs (no effect given): MDE = 2.12785 · √(1/3) = 1.2285721
 *  - 100 tasks, effect .2: budget (.2 / 0.282913)² = .499753; K = ⌈.5 / (.499753 - .083333)⌉ = 2
 */
function baseline() {
  const outcomes: Record<string, boolean[]> = {
    t1: [true, true],
    t2: [true, false],
    t3: [false, false],
    t4: [true, false],
  };
  return experimentOf(
    'base',
    Object.entries(outcomes).flatMap(([task, passes]) =>
      passes.map((pass, epoch) => ({ task, epoch, pass })),
    ),
  );
}

describe('power planning', () => {
  it('reads per-epoch values of a metric', () => {
    expect(perEpochValues(baseline(), 'success_rate').get('t2')).toEqual([1, 0]);
  });

  it('tasks needed from a baseline, for 1 and 4 epochs', () => {
    const one = powerFromBaseline(baseline(), { effect: 0.2 });
    expect(one.baseline_variance!.between).toBeCloseTo(1 / 24, 10);
    expect(one.baseline_variance!.within).toBeCloseTo(0.25, 10);
    expect(one.paired_variance.between).toBeCloseTo(1 / 12, 10);
    expect(one.paired_variance.within).toBeCloseTo(0.5, 10);
    // Epochs default to what the baseline ran (2), not 1.
    expect(one.plan).toMatchObject({ tasks: 68, epochs: 2 });
    expect(one.method).toBe('t');
    expect(powerFromBaseline(baseline(), { effect: 0.2, epochs: 1 }).plan.tasks).toBe(117);
    expect(powerFromBaseline(baseline(), { effect: 0.2, epochs: 4 }).plan.tasks).toBe(43);
  });

  it('the effect detectable with the baseline tasks, and epochs needed for a task budget', () => {
    expect(powerFromBaseline(baseline(), {}).plan.minimum_detectable_effect).toBeCloseTo(
      1.228572126151966,
      7,
    );
    const budget = powerFromBaseline(baseline(), { effect: 0.2, tasks: 100 });
    expect(budget.plan.epochs_needed).toBe(2);
    // 10 tasks can never detect .2: between alone (1/12) exceeds the budget (.2 / 0.99600)² = .04032.
    const hopeless = powerFromBaseline(baseline(), { effect: 0.2, tasks: 10 });
    expect(hopeless.plan.epochs_needed).toBeNull();
    expect(hopeless.notes.join(' ')).toMatch(/no number of epochs/);
  });

  it('a correlation between versions shrinks the between-task part', () => {
    const r = powerFromBaseline(baseline(), { effect: 0.2, correlation: 0.5 });
    expect(r.paired_variance.between).toBeCloseTo(1 / 24, 10);
  });

  it('from a given SD: MDE with 50 tasks 0.121255 (z said 0.118861); tasks for .1: 73 (z said 71)', () => {
    expect(powerFromSd(0.3, { tasks: 50 }).plan.minimum_detectable_effect).toBeCloseTo(0.1212549005274937, 8);
    expect(powerFromSd(0.3, { effect: 0.1 }).plan.tasks).toBe(73);
    expect(() => powerFromSd(0, {})).toThrow(/positive/);
  });

  it('one pass/fail verdict per task: exact McNemar power', () => {
    const single = experimentOf('single', [
      { task: 'a', pass: true },
      { task: 'b', pass: false },
      { task: 'c', pass: true },
    ]);
    const r = powerFromBaseline(single, { effect: 0.3 });
    // p_A = 2/3, p_B = 2/3 + .3, independent: p10 = 0.0222, p01 = 0.3222. Enumerating every
    // (b, c) with scipy's binomtest, the first n with power ≥ 0.8 is 30 (power 0.8189).
    expect(r).toMatchObject({ method: 'mcnemar_exact', correlation_source: 'assumed' });
    expect(r.binary?.p10).toBeCloseTo(0.02222222222222229, 12);
    expect(r.binary?.p01).toBeCloseTo(0.32222222222222224, 12);
    expect(r.plan.tasks).toBe(30);
    expect(r.notes.join(' ')).toMatch(/exact power of McNemar/);
  });

  it('--from: the correlation and the variance of the difference come from the observed pair', () => {
    const next = experimentOf(
      'next',
      Object.entries({ t1: [true, true], t2: [true, true], t3: [false, true], t4: [true, false] }).flatMap(
        ([task, passes]) => passes.map((pass, epoch) => ({ task, epoch, pass })),
      ),
    );
    const r = powerFromBaseline(baseline(), { effect: 0.2, from: next });
    expect(r).toMatchObject({ source: 'pair', from_id: 'next', correlation_source: 'observed' });
    // Task means A 1 .5 0 .5, B 1 1 .5 .5: Pearson r = 0.7071067811865476 (numpy corrcoef).
    expect(r.correlation).toBeCloseTo(Math.SQRT1_2, 12);
  });

  it('refuses to plan from a metric that does not vary', () => {
    const flat = experimentOf(
      'flat',
      ['a', 'b', 'c'].flatMap((task) => [0, 1].map((epoch) => ({ task, epoch, pass: true }))),
    );
    expect(() => powerFromBaseline(flat, { effect: 0.1 })).toThrow(/does not vary/);
  });

  it('rejects metrics without per-task values', () => {
    expect(() => powerFromBaseline(baseline(), { metric: 'latency_p95' })).toThrow(/no per-task values/);
  });
});
