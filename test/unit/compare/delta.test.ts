import { describe, expect, it } from 'vitest';
import { formatPercent, metricDelta, relativeWorsening } from '../../../src/compare/delta.ts';

describe('metricDelta', () => {
  it('reproduces the seed table: cost 14.32 -> 11.87 is -17.1%, an improvement', () => {
    const d = metricDelta(14.32, 11.87, 'lower_is_better');
    expect(d.percent).toBeCloseTo(-17.109, 3);
    expect(d).toMatchObject({ percent_label: '-17.1%', is_improvement: true, is_regression: false });
  });

  it('treats a rise as an improvement only for higher-is-better metrics', () => {
    expect(metricDelta(0.42, 0.67, 'higher_is_better')).toMatchObject({
      percent_label: '+59.5%',
      is_improvement: true,
    });
    expect(metricDelta(3.4, 1.8, 'lower_is_better')).toMatchObject({
      percent_label: '-47.1%',
      is_improvement: true,
    });
    expect(metricDelta(0.78, 0.7, 'higher_is_better')).toMatchObject({
      is_regression: true,
      is_improvement: false,
    });
    expect(metricDelta(1, 2, 'neutral')).toMatchObject({
      percent_label: '+100.0%',
      is_regression: false,
      is_improvement: false,
    });
  });

  it('is safe at zero: never Infinity or NaN', () => {
    expect(metricDelta(0, 0.5, 'higher_is_better')).toEqual({
      delta: 0.5,
      percent: null,
      percent_label: 'new',
      is_improvement: true,
      is_regression: false,
    });
    expect(metricDelta(0, 0, 'lower_is_better')).toMatchObject({
      percent: 0,
      percent_label: '0.0%',
      is_regression: false,
    });
    expect(metricDelta(0, 2, 'lower_is_better')).toMatchObject({ percent_label: 'new', is_regression: true });
    expect(metricDelta(null, 1, 'higher_is_better')).toMatchObject({
      delta: null,
      percent: null,
      percent_label: 'n/a',
    });
    expect(metricDelta(1, Number.NaN, 'higher_is_better').percent_label).toBe('n/a');
    // A negative baseline: the percentage is relative to |A|, so the sign still says up or down.
    expect(metricDelta(-2, -1, 'higher_is_better')).toMatchObject({ percent: 50, is_improvement: true });
  });

  it('ignores float noise: 0.1 + 0.2 vs 0.3 is no change', () => {
    expect(metricDelta(0.1 + 0.2, 0.3, 'higher_is_better')).toMatchObject({ delta: 0, is_regression: false });
  });
});

describe('relativeWorsening', () => {
  it('is the fraction worse than the baseline, by direction', () => {
    expect(relativeWorsening(0.8, 0.76, 'higher_is_better')).toBeCloseTo(0.05, 10);
    expect(relativeWorsening(10, 11, 'lower_is_better')).toBeCloseTo(0.1, 10);
    expect(relativeWorsening(10, 9, 'lower_is_better')).toBeCloseTo(-0.1, 10);
    expect(relativeWorsening(0, 1, 'lower_is_better')).toBe(Number.POSITIVE_INFINITY);
    expect(relativeWorsening(0, 0, 'lower_is_better')).toBe(0);
    expect(relativeWorsening(1, 0, 'neutral')).toBe(0);
  });
});

describe('formatPercent', () => {
  it('signs and rounds, with no "-0.0%"', () => {
    expect(formatPercent(10.25)).toBe('+10.3%');
    expect(formatPercent(-0.01)).toBe('0.0%');
    expect(formatPercent(-37.8)).toBe('-37.8%');
  });
});
