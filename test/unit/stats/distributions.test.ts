import { describe, expect, it } from 'vitest';
import {
  logGamma,
  normalCdf,
  normalQuantile,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTQuantile,
} from '../../../src/stats/distributions.ts';

// Reference values: standard tables, cross-checked with scipy.stats 1.17 (norm.cdf, norm.ppf, t.cdf, t.ppf).
describe('normal distribution', () => {
  const cdf: Array<[number, number]> = [
    [-5, 2.866515718791933e-7],
    [-3, 0.0013498980316300933],
    [-1.96, 0.024997895148220435],
    [-1, 0.15865525393145707],
    [0, 0.5],
    [0.3, 0.6179114221889526],
    [1, 0.8413447460685429],
    [1.96, 0.9750021048517795],
    [3, 0.9986501019683699],
    [5, 0.9999997133484281],
  ];
  it.each(cdf)('Φ(%d) = %d to 1e-12', (x, p) => {
    expect(Math.abs(normalCdf(x) - p)).toBeLessThan(1e-12);
  });

  it('is symmetric and saturates in the far tails', () => {
    for (const x of [0.1, 0.7, 2.2, 4.5, 8]) expect(normalCdf(x) + normalCdf(-x)).toBeCloseTo(1, 14);
    expect(normalCdf(40)).toBe(1);
    expect(normalCdf(-40)).toBe(0);
    expect(normalCdf(Number.NaN)).toBeNaN();
  });

  const quantiles: Array<[number, number]> = [
    [1e-5, -4.264890793922825],
    [0.001, -3.090232306167813],
    [0.025, -1.9599639845400545],
    [0.05, -1.6448536269514729],
    [0.2, -0.8416212335729142],
    [0.5, 0],
    [0.8, 0.8416212335729143],
    [0.975, 1.959963984540054],
    [0.99, 2.3263478740408408],
    [0.999999, 4.753424308817087],
  ];
  it.each(quantiles)('Φ⁻¹(%d) = %d to 1e-9', (p, x) => {
    expect(Math.abs(normalQuantile(p) - x)).toBeLessThan(1e-9);
  });

  it('inverts the CDF and handles the ends', () => {
    for (const p of [0.001, 0.1, 0.37, 0.5, 0.9, 0.999])
      expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 13);
    expect(normalQuantile(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(normalQuantile(1)).toBe(Number.POSITIVE_INFINITY);
    expect(() => normalQuantile(-0.1)).toThrow(RangeError);
    expect(() => normalQuantile(Number.NaN)).toThrow(RangeError);
  });
});

describe('Student t distribution', () => {
  it('matches the closed forms for 1 and 2 degrees of freedom', () => {
    // df = 1 (Cauchy): F(t) = 1/2 + atan(t)/π; df = 2: F(t) = 1/2 + t / (2 sqrt(2 + t²))
    for (const t of [-3, -0.5, 0, 0.8, 2, 10]) {
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 13);
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 13);
    }
    // t_{0.975,1} = tan(0.475 π) = 12.706204736174694; t_{0.975,2} = 0.95 / sqrt(2 × 0.975 × 0.025) = 4.302652729749462
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.706204736174694, 10);
    expect(studentTQuantile(0.975, 2)).toBeCloseTo(4.302652729749462, 12);
  });

  it.each([
    [2, 3, 0.9303370157205785],
    [-1.5, 4, 0.104],
    [2.2, 10, 0.9737794657753234],
    [0.7, 29, 0.7552474256927582],
    [3, 7.5, 0.9908045306958978],
  ])('P(T ≤ %d; df %d) = %d', (t, df, p) => {
    expect(Math.abs(studentTCdf(t, df) - p)).toBeLessThan(1e-12);
  });

  it.each([
    [0.975, 3, 3.1824463052837078],
    [0.975, 5, 2.5705818356363146],
    [0.975, 10, 2.228138851986274],
    [0.975, 29, 2.045229642132703],
    [0.995, 4, 4.604094871349992],
    [0.9, 100, 1.290074761346516],
    [0.025, 10, -2.228138851986274],
  ])('t quantile p=%d df=%d is %d to 1e-9', (p, df, t) => {
    expect(Math.abs(studentTQuantile(p, df) - t)).toBeLessThan(1e-9);
  });

  it('tends to the normal and handles edges', () => {
    expect(studentTQuantile(0.975, Number.POSITIVE_INFINITY)).toBeCloseTo(1.959963984540054, 12);
    expect(studentTQuantile(0.975, 1e7)).toBeCloseTo(1.959963984540054, 5);
    expect(studentTQuantile(0.5, 4)).toBe(0);
    expect(studentTCdf(Number.POSITIVE_INFINITY, 3)).toBe(1);
    expect(() => studentTCdf(1, 0)).toThrow(RangeError);
    expect(() => studentTQuantile(1.2, 3)).toThrow(RangeError);
  });
});

describe('special functions', () => {
  it('logGamma matches ln Γ', () => {
    // Γ(1/2) = √π -> 0.5723649429247001; Γ(10) = 9! = 362880
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 13);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12);
    expect(logGamma(1)).toBeCloseTo(0, 14);
  });

  it('regularizedIncompleteBeta matches closed forms', () => {
    // I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(2, 2) = 3x² - 2x³
    expect(regularizedIncompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 14);
    expect(regularizedIncompleteBeta(0.6, 3, 1)).toBeCloseTo(0.216, 14);
    expect(regularizedIncompleteBeta(0.4, 2, 2)).toBeCloseTo(3 * 0.16 - 2 * 0.064, 14);
    expect(regularizedIncompleteBeta(0, 2, 2)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 2)).toBe(1);
  });
});
