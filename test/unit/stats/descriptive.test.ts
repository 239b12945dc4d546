import { describe, expect, it } from 'vitest';
import {
  ci95,
  confidenceInterval,
  criticalValue,
  mean,
  median,
  pearsonCorrelation,
  quantile,
  standardDeviation,
  standardError,
  sum,
  variance,
} from '../../../src/stats/descriptive.ts';

describe('mean, variance, standard error', () => {
  // xs = 2 4 4 4 5 5 7 9: Σ = 40, mean = 5; squared deviations 9 1 1 1 0 0 4 16 = 32;
  // sample variance 32/7 = 4.571428…; SE = sqrt(32/7/8) = sqrt(4/7) = 0.755928946…
  const xs = [2, 4, 4, 4, 5, 5, 7, 9];
  it('computes the known answers', () => {
    expect(mean(xs)).toBe(5);
    expect(variance(xs)).toBeCloseTo(32 / 7, 14);
    expect(standardDeviation(xs)).toBeCloseTo(Math.sqrt(32 / 7), 14);
    expect(standardError(xs)).toBeCloseTo(0.7559289460184544, 14);
  });

  it('returns null for empty and single-element input instead of NaN', () => {
    expect(mean([])).toBeNull();
    expect(variance([])).toBeNull();
    expect(standardError([])).toBeNull();
    expect(mean([3])).toBe(3);
    expect(variance([3])).toBeNull();
    expect(standardError([3])).toBeNull();
  });

  it('drops NaN and infinities', () => {
    // finite values 1 and 3: mean 2, variance ((1-2)² + (3-2)²)/1 = 2
    expect(mean([1, Number.NaN, 3, Number.POSITIVE_INFINITY])).toBe(2);
    expect(variance([1, Number.NaN, 3])).toBe(2);
    expect(mean([Number.NaN])).toBeNull();
    expect(sum([Number.NaN, 1, Number.NEGATIVE_INFINITY])).toBe(1);
  });

  it('sums many small costs without drift', () => {
    // 10,000 × 0.1 = 1000 exactly with compensated summation (naive summation gives 1000.0000000001588).
    expect(sum(new Array<number>(10_000).fill(0.1))).toBe(1000);
  });

  it('keeps the variance of a constant at 0 far from zero', () => {
    expect(variance([1e9 + 1, 1e9 + 1, 1e9 + 1])).toBe(0);
  });
});

describe('quantile (type 7, linear interpolation)', () => {
  it('interpolates between order statistics', () => {
    // [1,2,3,4], p = 0.5: h = 3 × 0.5 = 1.5 -> x[1] + 0.5 (x[2] - x[1]) = 2.5
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5);
    // [1..10], p = 0.95: h = 9 × 0.95 = 8.55 -> 9 + 0.55 × (10 - 9) = 9.55
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBeCloseTo(9.55, 12);
    // p = 0 and 1 are the extremes
    expect(quantile([3, 1, 2], 0)).toBe(1);
    expect(quantile([3, 1, 2], 1)).toBe(3);
    expect(median([5, 1, 3])).toBe(3);
  });

  it('handles empty, single and NaN input', () => {
    expect(quantile([], 0.5)).toBeNull();
    expect(quantile([7], 0.95)).toBe(7);
    expect(quantile([Number.NaN, 2], 0.5)).toBe(2);
  });

  it('refuses p outside [0, 1]', () => {
    expect(() => quantile([1], 1.5)).toThrow(RangeError);
    expect(() => quantile([1], Number.NaN)).toThrow(RangeError);
  });
});

describe('intervals', () => {
  it('uses z = 1.959963984540054 by default and t on request', () => {
    expect(criticalValue()).toBeCloseTo(1.959963984540054, 12);
    // t_{0.975, 3} = 3.182446305284263 (tables; scipy.stats.t.ppf(0.975, 3))
    expect(criticalValue({ method: 't', df: 3 })).toBeCloseTo(3.1824463052837078, 9);
    // 90%: z_{0.95} = 1.6448536269514722
    expect(criticalValue({ level: 0.9 })).toBeCloseTo(1.6448536269514722, 12);
    expect(() => criticalValue({ method: 't' })).toThrow(RangeError);
    expect(() => criticalValue({ level: 1 })).toThrow(RangeError);
  });

  it('computes a 95% interval for a small pass/fail sample', () => {
    // [0,1,1,1]: mean 0.75; deviations² 0.5625 + 3 × 0.0625 = 0.75; s² = 0.25; SE = sqrt(0.25/4) = 0.25
    // z: 0.75 ± 1.959964 × 0.25 = [0.260009, 1.239991]; t(3): 0.75 ± 3.182446 × 0.25 = [-0.045612, 1.545612]
    const z = ci95([0, 1, 1, 1]);
    expect(z?.[0]).toBeCloseTo(0.260009003864987, 12);
    expect(z?.[1]).toBeCloseTo(1.239990996135013, 12);
    const t = ci95([0, 1, 1, 1], { method: 't' });
    expect(t?.[0]).toBeCloseTo(-0.04561157632092695, 9);
    expect(t?.[1]).toBeCloseTo(1.545611576320927, 9);
  });

  it('is null when it cannot be computed', () => {
    expect(ci95([])).toBeNull();
    expect(ci95([1])).toBeNull();
    expect(confidenceInterval(null, 0.1)).toBeNull();
    expect(confidenceInterval(1, null)).toBeNull();
    expect(confidenceInterval(1, Number.NaN)).toBeNull();
  });
});

describe('pearsonCorrelation', () => {
  it('matches the hand computation', () => {
    // x = 1 2 3, y = 2 4 7: dx = -1 0 1, dy = -7/3 -1/3 8/3; Sxy = 5, Sxx = 2, Syy = 38/3
    // r = 5 / sqrt(76/3) = 0.99339926779878…
    expect(pearsonCorrelation([1, 2, 3], [2, 4, 7])).toBeCloseTo(0.9933992677987828, 14);
    expect(pearsonCorrelation([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 14);
  });

  it('is null for constant or too-short input and rejects mismatched lengths', () => {
    expect(pearsonCorrelation([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(pearsonCorrelation([1], [2])).toBeNull();
    expect(pearsonCorrelation([], [])).toBeNull();
    expect(() => pearsonCorrelation([1, 2], [1])).toThrow(RangeError);
  });
});
