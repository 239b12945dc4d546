import { describe, expect, it } from 'vitest';
import {
  epochsNeeded,
  minimumDetectableEffect,
  minimumDetectableEffectWithEpochs,
  powerMultiplier,
  signTestTasksNeeded,
  tasksNeeded,
  tasksNeededWithEpochs,
  varianceWithEpochs,
} from '../../../src/stats/power.ts';

// z_{0.975} + z_{0.8} = 1.959963984540054 + 0.8416212335729143 = 2.8015852181129683
const M = 2.8015852181129683;

describe('power analysis', () => {
  it('uses z_{1-α/2} + z_power', () => {
    expect(powerMultiplier()).toBeCloseTo(M, 12);
    // α = 0.01, power 0.9: 2.5758293035489 + 1.2815515655446004 = 3.8573808690935
    expect(powerMultiplier({ alpha: 0.01, power: 0.9 })).toBeCloseTo(3.857380869093501, 9);
    expect(() => powerMultiplier({ alpha: 0 })).toThrow(RangeError);
    expect(() => powerMultiplier({ power: 1 })).toThrow(RangeError);
  });

  // Expected values: statsmodels 0.13.5 TTestPower (solve_power rounded up for tasks; for an MDE
  // the root of its power function found with scipy brentq, as solve_power stops near 1e-7).
  it('computes the minimum detectable effect of the paired t test', () => {
    // 100 tasks: d = 0.2829126327735679 (z would say 2.80158 / 10 = 0.280158)
    expect(minimumDetectableEffect({ tasks: 100, sd: 1 })).toBeCloseTo(0.2829126327735679, 7);
    expect(minimumDetectableEffect({ tasks: 25, sd: 0.3 })).toBeCloseTo(0.17520800146502527, 7);
    expect(minimumDetectableEffect({ tasks: 25, sd: 0.3 })!).toBeGreaterThan((M * 0.3) / 5);
    expect(minimumDetectableEffect({ tasks: 0, sd: 1 })).toBeNull();
    expect(minimumDetectableEffect({ tasks: 1, sd: 1 })).toBeNull(); // no t test on one task
    expect(minimumDetectableEffect({ tasks: 10, sd: 0 })).toBeNull(); // no spread: the sign test decides
  });

  it('computes the tasks needed and rounds up', () => {
    // effect 0.1, SD 0.5: nobs 198.15 -> 199 (z: 196.22 -> 197)
    expect(tasksNeeded({ effect: 0.1, sd: 0.5 })).toBe(199);
    expect(tasksNeeded({ effect: -0.1, sd: 0.5 })).toBe(199);
    // Round trip: the MDE with that many tasks is at most the effect.
    expect(minimumDetectableEffect({ tasks: 199, sd: 0.5 })!).toBeLessThanOrEqual(0.1);
    expect(minimumDetectableEffect({ tasks: 198, sd: 0.5 })!).toBeGreaterThan(0.1);
    expect(tasksNeeded({ effect: 0, sd: 0.5 })).toBeNull();
    expect(tasksNeeded({ effect: 1, sd: 0 })).toBeNull();
    // With no spread the exact sign test needs 2 · 0.5^n < α: 6 tasks at 0.05, 8 at 0.01.
    expect(signTestTasksNeeded()).toBe(6);
    expect(signTestTasksNeeded({ alpha: 0.01 })).toBe(8);
  });

  it('accounts for epochs: Var = σ²_between + σ²_within / K', () => {
    // between .04, within .2, K = 4: .04 + .05 = .09 (SD .3)
    expect(varianceWithEpochs({ between: 0.04, within: 0.2 }, 4)).toBeCloseTo(0.09, 15);
    expect(() => varianceWithEpochs({ between: 0.04, within: 0.2 }, 0)).toThrow(RangeError);
    // effect .1 at SD .3: nobs 72.58 -> 73 tasks (z: 71)
    expect(tasksNeededWithEpochs({ between: 0.04, within: 0.2, epochs: 4, effect: 0.1 })).toBe(73);
    expect(
      minimumDetectableEffectWithEpochs({ between: 0.04, within: 0.2, epochs: 4, tasks: 100 }),
    ).toBeCloseTo(0.2829126327735679 * 0.3, 7);
  });

  it('finds the fewest epochs, or null when epochs cannot help', () => {
    // 100 tasks, effect .1: budget (0.1 / 0.282913)² = 0.124939; minus between .04 = .084939
    // K ≥ .2 / .084939 = 2.35 -> 3 (statsmodels: power 0.754 at K = 2, 0.858 at K = 3)
    expect(epochsNeeded({ between: 0.04, within: 0.2, effect: 0.1, tasks: 100 })).toBe(3);
    // between alone .2 > budget: no number of epochs suffices
    expect(epochsNeeded({ between: 0.2, within: 0.2, effect: 0.1, tasks: 100 })).toBeNull();
    expect(epochsNeeded({ between: 0.01, within: 0, effect: 0.1, tasks: 100 })).toBe(1);
    expect(epochsNeeded({ between: 0.04, within: 0.2, effect: 0.1, tasks: 100, maxEpochs: 2 })).toBeNull();
    expect(epochsNeeded({ between: 0.04, within: 0.2, effect: 0, tasks: 100 })).toBeNull();
  });
});
