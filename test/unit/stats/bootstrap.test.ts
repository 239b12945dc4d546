import { describe, expect, it } from 'vitest';
import { bootstrapCi, bootstrapCountsCi, mulberry32 } from '../../../src/stats/bootstrap.ts';
import { mean } from '../../../src/stats/descriptive.ts';

describe('mulberry32', () => {
  it('is reproducible and uniform-looking in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 10_000 }, () => a());
    expect(Array.from({ length: 10_000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    // The mean of 10,000 U(0,1) draws is within 0.02 of 0.5 with overwhelming probability (SE 0.0029).
    expect(Math.abs(mean(xs)! - 0.5)).toBeLessThan(0.02);
    expect(mulberry32(43)()).not.toBe(mulberry32(42)());
  });
});

describe('bootstrapCi', () => {
  const scores = [0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1];
  const meanOf = (xs: readonly number[]) => mean(xs);

  it('gives the same interval for the same seed', () => {
    const first = bootstrapCi(scores, meanOf, { seed: 7, resamples: 500 });
    const second = bootstrapCi(scores, meanOf, { seed: 7, resamples: 500 });
    expect(second).toEqual(first);
    expect(first?.estimate).toBe(0.7);
    expect(first?.resamples).toBe(500);
  });

  it('gives a different interval for a different seed (almost surely)', () => {
    const first = bootstrapCi(scores, meanOf, { seed: 7, resamples: 500 });
    const other = bootstrapCi(scores, meanOf, { seed: 8, resamples: 500 });
    expect(other?.stderr).not.toBe(first?.stderr);
  });

  it('brackets the estimate, and its SE is near the analytic one', () => {
    // Analytic: p = 0.7, SE ≈ sqrt(p(1-p)/n) = sqrt(0.21/20) = 0.1025
    const result = bootstrapCi(scores, meanOf, { seed: 1, resamples: 4000 })!;
    expect(result.ci[0]).toBeLessThan(0.7);
    expect(result.ci[1]).toBeGreaterThan(0.7);
    expect(result.stderr).toBeGreaterThan(0.08);
    expect(result.stderr).toBeLessThan(0.12);
  });

  it('returns a degenerate interval for a constant sample and null for empty input', () => {
    expect(bootstrapCi([2, 2, 2], meanOf, { seed: 1, resamples: 50 })).toMatchObject({
      ci: [2, 2],
      stderr: 0,
    });
    expect(bootstrapCi([], meanOf, { seed: 1 })).toBeNull();
    expect(bootstrapCi([1, 2], () => Number.NaN, { seed: 1 })).toBeNull();
  });

  it('rejects bad options', () => {
    expect(() => bootstrapCi([1, 2], meanOf, { seed: 1, resamples: 0 })).toThrow(RangeError);
    expect(() => bootstrapCi([1, 2], meanOf, { seed: 1, level: 1 })).toThrow(RangeError);
  });
});

describe('bootstrapCountsCi (one resampling for several statistics of counts)', () => {
  const scores = [0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1];
  const countsMean = (counts: Int32Array) => {
    let total = 0;
    let n = 0;
    for (let i = 0; i < counts.length; i++) {
      total += counts[i]! * scores[i]!;
      n += counts[i]!;
    }
    return n === 0 ? null : total / n;
  };
  const countsMax = (counts: Int32Array) => {
    let max = -1;
    for (let i = 0; i < counts.length; i++) if (counts[i]! > 0) max = Math.max(max, i);
    return max;
  };

  it('draws the same resamples as bootstrapCi with the same seed', () => {
    const [viaCounts] = bootstrapCountsCi(scores.length, [countsMean], { seed: 7, resamples: 500 });
    expect(viaCounts).toEqual(bootstrapCi(scores, (xs) => mean(xs), { seed: 7, resamples: 500 }));
  });

  it('gives each statistic the result it would get alone', () => {
    const options = { seed: 3, resamples: 300 };
    const [m, x] = bootstrapCountsCi(scores.length, [countsMean, countsMax], options);
    expect(m).toEqual(bootstrapCountsCi(scores.length, [countsMean], options)[0]);
    expect(x).toEqual(bootstrapCountsCi(scores.length, [countsMax], options)[0]);
    expect(x?.estimate).toBe(scores.length - 1);
  });

  it('is null for no items and for a statistic that is not finite on the sample', () => {
    expect(bootstrapCountsCi(0, [countsMean], { seed: 1 })).toEqual([null]);
    const [m, nan] = bootstrapCountsCi(scores.length, [countsMean, () => Number.NaN], {
      seed: 1,
      resamples: 50,
    });
    expect(m?.estimate).toBe(0.7);
    expect(nan).toBeNull();
    expect(() => bootstrapCountsCi(3, [countsMean], { seed: 1, resamples: 0 })).toThrow(RangeError);
  });
});
