import { describe, expect, it } from 'vitest';
import {
  epochsNeeded,
  minimumDetectableEffect,
  minimumDetectableEffectWithEpochs,
  powerMultiplier,
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

  it('computes the minimum detectable effect', () => {
    // SD 1, 100 tasks: 2.80158 × 1 / 10 = 0.280158
    expect(minimumDetectableEffect({ tasks: 100, sd: 1 })).toBeCloseTo(M / 10, 12);
    // SD 0.3, 25 tasks: 2.80158 × 0.3 / 5 = 0.168095
    expect(minimumDetectableEffect({ tasks: 25, sd: 0.3 })).toBeCloseTo((M * 0.3) / 5, 12);
    expect(minimumDetectableEffect({ tasks: 0, sd: 1 })).toBeNull();
    expect(minimumDetectableEffect({ tasks: 10, sd: 0 })).toBe(0);
  });

  it('computes the tasks needed and rounds up', () => {
    // effect 0.1, SD 0.5: (2.80158 × 0.5 / 0.1)² = 14.0079² = 196.22 -> 197
    expect(tasksNeeded({ effect: 0.1, sd: 0.5 })).toBe(197);
    expect(tasksNeeded({ effect: -0.1, sd: 0.5 })).toBe(197);
    // Round trip: the MDE with that many tasks is at most the effect.
    expect(minimumDetectableEffect({ tasks: 197, sd: 0.5 })!).toBeLessThanOrEqual(0.1);
    expect(minimumDetectableEffect({ tasks: 196, sd: 0.5 })!).toBeGreaterThan(0.1);
    expect(tasksNeeded({ effect: 0, sd: 0.5 })).toBeNull();
    expect(tasksNeeded({ effect: 1, sd: 0 })).toBe(1);
  });

  it('accounts for epochs: Var = σ²_between + σ²_within / K', () => {
    // between .04, within .2, K = 4: .04 + .05 = .09 (SD .3)
    expect(varianceWithEpochs({ between: 0.04, within: 0.2 }, 4)).toBeCloseTo(0.09, 15);
    expect(() => varianceWithEpochs({ between: 0.04, within: 0.2 }, 0)).toThrow(RangeError);
    // effect .1 at SD .3: (2.80158 × 3)² = 70.64 -> 71 tasks
    expect(tasksNeededWithEpochs({ between: 0.04, within: 0.2, epochs: 4, effect: 0.1 })).toBe(71);
    expect(
      minimumDetectableEffectWithEpochs({ between: 0.04, within: 0.2, epochs: 4, tasks: 100 }),
    ).toBeCloseTo((M * 0.3) / 10, 12);
  });

  it('finds the fewest epochs, or null when epochs cannot help', () => {
    // 100 tasks, effect .1: budget (0.1/2.80158)² × 100 = 0.127406; minus between .04 = .087406
    // K ≥ .2 / .087406 = 2.288 -> 3 (K = 2 gives .14 > .1274; K = 3 gives .1067 ≤ .1274)
    expect(epochsNeeded({ between: 0.04, within: 0.2, effect: 0.1, tasks: 100 })).toBe(3);
    // between alone .2 > budget: no number of epochs suffices
    expect(epochsNeeded({ between: 0.2, within: 0.2, effect: 0.1, tasks: 100 })).toBeNull();
    expect(epochsNeeded({ between: 0.01, within: 0, effect: 0.1, tasks: 100 })).toBe(1);
    expect(epochsNeeded({ between: 0.04, within: 0.2, effect: 0.1, tasks: 100, maxEpochs: 2 })).toBeNull();
    expect(epochsNeeded({ between: 0.04, within: 0.2, effect: 0, tasks: 100 })).toBeNull();
  });
});
