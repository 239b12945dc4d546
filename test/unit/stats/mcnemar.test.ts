import { describe, expect, it } from 'vitest';
import { discordantPairs, mcnemarExact } from '../../../src/stats/mcnemar.ts';

describe('mcnemarExact', () => {
  it('equals two binomial tails summed by hand', () => {
    // b = 1, c = 5, n = 6: P(X ≤ 1) = (C(6,0) + C(6,1)) / 64 = 7/64; p = 14/64 = 0.21875
    // mid-p = 14/64 - C(6,1)/64 = 8/64 = 0.125
    const r = mcnemarExact(1, 5);
    expect(r.p_value).toBe(0.21875);
    expect(r.mid_p_value).toBe(0.125);
    expect(r.discordant).toBe(6);
    // b = 0, c = 10: p = 2 × 1/1024 = 0.001953125; mid-p = 1/1024
    expect(mcnemarExact(0, 10).p_value).toBe(2 / 1024);
    expect(mcnemarExact(0, 10).mid_p_value).toBe(1 / 1024);
    // b = 3, c = 17, n = 20: 2 (1 + 20 + 190 + 1140) / 2^20 = 2702 / 1048576
    expect(mcnemarExact(3, 17).p_value).toBeCloseTo(2702 / 1048576, 15);
    expect(mcnemarExact(17, 3).p_value).toBeCloseTo(2702 / 1048576, 15);
  });

  it('caps at 1 for balanced discordance and is 1 with no discordant pairs', () => {
    // b = c = 3: 2 (1 + 6 + 15 + 20)/64 = 84/64 > 1 -> 1
    expect(mcnemarExact(3, 3).p_value).toBe(1);
    expect(mcnemarExact(3, 3).mid_p_value).toBe(1);
    expect(mcnemarExact(0, 0)).toMatchObject({ p_value: 1, mid_p_value: 1, discordant: 0 });
    // b = 0, c = 1: 2 × 1/2 = 1
    expect(mcnemarExact(0, 1).p_value).toBe(1);
  });

  it('stays finite for thousands of discordant pairs', () => {
    // scipy.stats.binomtest(1000, 2100, 0.5).pvalue = 0.03072070786424249
    expect(mcnemarExact(1000, 1100).p_value).toBeCloseTo(0.03072070786424249, 10); // log-space path
    // scipy.stats.binomtest(450, 970).pvalue = 0.02667770276676101 (linear-space path, n ≤ 1000)
    expect(mcnemarExact(450, 520).p_value).toBeCloseTo(0.02667770276676101, 12);
    const extreme = mcnemarExact(0, 5000).p_value;
    expect(Number.isFinite(extreme)).toBe(true);
    expect(extreme).toBe(0); // 2^-4999 underflows to 0 in double precision
  });

  it('rejects non-counts', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(Number.NaN, 2)).toThrow(RangeError);
  });
});

describe('discordantPairs', () => {
  it('counts regressions and improvements over shared tasks', () => {
    const a = new Map([
      ['t1', true],
      ['t2', true],
      ['t3', false],
      ['t4', false],
      ['t5', true],
    ]);
    const b = new Map([
      ['t1', true],
      ['t2', false],
      ['t3', true],
      ['t4', false],
      ['t6', true],
    ]);
    expect(discordantPairs(a, b)).toEqual({
      b: 1,
      c: 1,
      both_pass: 1,
      both_fail: 1,
      regressions: ['t2'],
      improvements: ['t3'],
    });
  });
});
