import { describe, expect, it } from 'vitest';
import { perEpochValues, powerFromBaseline, powerFromSd } from '../../../src/compare/power-plan.ts';
import { experimentOf } from '../../helpers/comparison.ts';

/**
 * Baseline: 4 tasks x 2 epochs of pass/fail. t1 [1,1], t2 [1,0], t3 [0,0], t4 [1,0].
 * Within: task variances 0, .5, 0, .5 -> σ²_w = .25. Task means 1, .5, 0, .5: variance 1/6;
 * between = 1/6 - .25/2 = 1/24. Paired (ρ = 0): ω² = 2/24 = 1/12, within = 2 · .25 = .5.
 * m = z.975 + z.8 = 2.801585, m² = 7.848880.
 *  - effect .2, 1 epoch: n = m² (1/12 + .5) / .04 = 114.46 -> 115 tasks
 *  - effect .2, 4 epochs: n = m² (1/12 + .125) / .04 = 40.88 -> 41 tasks
 *  - 4 tasks, 1 epoch (no effect given): MDE = m √(.583333 / 4) = 1.069873
 *  - 100 tasks, effect .2: budget (.2/m)² · 100 = .509627; K = ⌈.5 / (.509627 - .083333)⌉ = ⌈1.173⌉ = 2
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
    expect(one.plan.tasks).toBe(115);
    expect(powerFromBaseline(baseline(), { effect: 0.2, epochs: 4 }).plan.tasks).toBe(41);
  });

  it('the effect detectable with the baseline tasks, and epochs needed for a task budget', () => {
    expect(powerFromBaseline(baseline(), {}).plan.minimum_detectable_effect).toBeCloseTo(1.069873, 5);
    const budget = powerFromBaseline(baseline(), { effect: 0.2, tasks: 100 });
    expect(budget.plan.epochs_needed).toBe(2);
    // 10 tasks can never detect .2: between alone exceeds the budget (.2/m)² · 10 = .05096.
    const hopeless = powerFromBaseline(baseline(), { effect: 0.2, tasks: 10 });
    expect(hopeless.plan.epochs_needed).toBeNull();
    expect(hopeless.notes.join(' ')).toMatch(/no number of epochs/);
  });

  it('a correlation between versions shrinks the between-task part', () => {
    const r = powerFromBaseline(baseline(), { effect: 0.2, correlation: 0.5 });
    expect(r.paired_variance.between).toBeCloseTo(1 / 24, 10);
  });

  it('from a given SD: MDE with 50 tasks = m · .3 / √50 = 0.118861; tasks for .1 = ⌈70.64⌉ = 71', () => {
    expect(powerFromSd(0.3, { tasks: 50 }).plan.minimum_detectable_effect).toBeCloseTo(0.1188612, 6);
    expect(powerFromSd(0.3, { effect: 0.1 }).plan.tasks).toBe(71);
    expect(() => powerFromSd(0, {})).toThrow(/positive/);
  });

  it('one epoch: within-task variance is unknown and says so', () => {
    const single = experimentOf('single', [
      { task: 'a', pass: true },
      { task: 'b', pass: false },
      { task: 'c', pass: true },
    ]);
    const r = powerFromBaseline(single, { effect: 0.3 });
    // Variance of 1, 0, 1 = 1/3, paired: 2/3; n = m² · (2/3) / .09 = 58.14 -> 59.
    expect(r.paired_variance.between).toBeCloseTo(2 / 3, 10);
    expect(r.plan.tasks).toBe(59);
    expect(r.notes[0]).toMatch(/one epoch/);
  });

  it('rejects metrics without per-task values', () => {
    expect(() => powerFromBaseline(baseline(), { metric: 'latency_p95' })).toThrow(/no per-task values/);
  });
});
