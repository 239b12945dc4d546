import { describe, expect, it } from 'vitest';
import {
  comparePaired,
  pairedVarianceComponents,
  pairedVarianceFromBaseline,
  planPower,
} from '../../../src/stats/significance.ts';

const M = 2.8015852181129683; // z_{0.975} + z_{0.8}

describe('comparePaired', () => {
  // Same data as paired.test.ts: differences .2 .1 .1 .3, s² = .0275/3, SE = sqrt(s²/4)
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
  ]);

  it("adds the minimum detectable effect and the tasks needed, by the t test's power", () => {
    // statsmodels TTestPower: MDE at 4 tasks = 2.1279 SD (brentq on its power) = 0.2037356;
    // tasks for δ = .175: nobs 4.59 -> 5; for .05: 30.76 -> 31 (the z formula said 3 and 29).
    const s2 = 0.0275 / 3;
    const result = comparePaired(a, b);
    expect(result.sd_difference).toBeCloseTo(Math.sqrt(s2), 14);
    expect(result.minimum_detectable_effect).toBeCloseTo(0.20373563851676263, 9);
    expect(result.tasks_needed).toBe(5);
    expect(comparePaired(a, b, { effect: 0.05 }).tasks_needed).toBe(31);
    expect(result.power_method).toBe('t');
    expect(result.significant).toBe(true);
    // Wider than the normal approximation's M · SD / √4.
    expect(result.minimum_detectable_effect!).toBeGreaterThan((M * Math.sqrt(s2)) / 2);
  });

  it('plans with exact McNemar power for pass/fail verdicts, and the sign test without spread', () => {
    const pass = new Map([
      ['t1', 1],
      ['t2', 1],
      ['t3', 1],
      ['t4', 0],
      ['t5', 1],
      ['t6', 0],
    ]);
    const fail = new Map([
      ['t1', 0],
      ['t2', 0],
      ['t3', 1],
      ['t4', 0],
      ['t5', 0],
      ['t6', 0],
    ]);
    const binary = comparePaired(fail, pass, { kind: 'binary' });
    expect(binary).toMatchObject({ test: 'mcnemar_exact', power_method: 'mcnemar_exact' });
    expect(binary.mcnemar).toMatchObject({ b: 0, c: 3, p_value: 0.25 });
    // 6 tasks cannot reach 80% power for any difference at 3 of 6 discordant: no MDE.
    expect(binary.minimum_detectable_effect).toBeNull();
    const constant = comparePaired(fail, new Map([...fail].map(([t, v]) => [t, v + 0.5])));
    expect(constant).toMatchObject({ test: 'sign_test', power_method: 'sign_test', tasks_needed: 6 });
    expect(constant.p_value).toBeCloseTo(2 * 0.5 ** 6, 15);
  });

  it('is null-safe without shared tasks', () => {
    const result = comparePaired(new Map([['x', 1]]), new Map([['y', 1]]));
    expect(result).toMatchObject({
      sd_difference: null,
      minimum_detectable_effect: null,
      tasks_needed: null,
    });
  });
});

describe('pairedVarianceComponents', () => {
  it('separates ω² from sampling noise', () => {
    // A: t1 [1,0] t2 [1,1] t3 [0,0] -> means .5 1 0; B: t1 [1,1] t2 [1,0] t3 [1,0] -> means 1 .5 .5
    // d = .5 -.5 .5, mean 1/6, Var(d) = (1/9 + 4/9 + 1/9)/2 = 1/3
    // σ²_A per task .5 0 0 (mean 1/6); σ²_B 0 .5 .5 (mean 1/3); sampling per task .5/2 + .5/2… = .25 each
    // ω² = 1/3 - 1/4 = 1/12; within = 1/6 + 1/3 = 1/2
    const a = new Map([
      ['t1', [1, 0]],
      ['t2', [1, 1]],
      ['t3', [0, 0]],
    ]);
    const b = new Map([
      ['t1', [1, 1]],
      ['t2', [1, 0]],
      ['t3', [1, 0]],
    ]);
    const result = pairedVarianceComponents(a, b);
    expect(result?.between).toBeCloseTo(1 / 12, 14);
    expect(result?.within).toBeCloseTo(0.5, 14);
    expect(result?.tasks).toBe(3);
  });

  it('puts everything in ω² with one epoch, and is null with < 2 shared tasks', () => {
    const a = new Map([
      ['t1', [0]],
      ['t2', [1]],
    ]);
    const b = new Map([
      ['t1', [1]],
      ['t2', [1]],
    ]);
    // d = 1, 0: Var = 0.5
    expect(pairedVarianceComponents(a, b)).toEqual({ between: 0.5, within: 0, tasks: 2 });
    expect(pairedVarianceComponents(new Map([['t1', [1]]]), new Map([['t1', [0]]]))).toBeNull();
  });
});

describe('power planning from a baseline', () => {
  it('predicts the paired variance from one experiment', () => {
    expect(pairedVarianceFromBaseline({ between: 0.1, within: 0.2 })).toEqual({ between: 0.2, within: 0.4 });
    const half = pairedVarianceFromBaseline({ between: 0.1, within: 0.2 }, 0.5);
    expect(half.between).toBeCloseTo(0.1, 15);
    expect(half.within).toBeCloseTo(0.4, 15);
    expect(() => pairedVarianceFromBaseline({ between: 0.1, within: 0.2 }, 2)).toThrow(RangeError);
  });

  it('plans tasks for an effect, and the effect and epochs for a task count', () => {
    // between .04, within .2, K = 4: variance .09, SD .3 -> statsmodels nobs 72.58 -> 73 tasks
    const forEffect = planPower({ between: 0.04, within: 0.2, effect: 0.1, epochs: 4 });
    expect(forEffect.tasks).toBe(73);
    expect(forEffect.minimum_detectable_effect!).toBeLessThanOrEqual(0.1);
    expect(forEffect.epochs_needed).toBeNull();
    // 100 tasks, 1 epoch: MDE = 0.2829126 × sqrt(.24) = 0.1385983; 3 epochs reach .1 (see power.test.ts)
    const forTasks = planPower({ between: 0.04, within: 0.2, effect: 0.1, tasks: 100 });
    expect(forTasks.minimum_detectable_effect).toBeCloseTo(0.1385983184165277, 9);
    expect(forTasks.epochs_needed).toBe(3);
    expect(planPower({ between: 0.04, within: 0.2 })).toEqual({
      tasks: null,
      epochs: 1,
      minimum_detectable_effect: null,
      epochs_needed: null,
    });
  });
});
