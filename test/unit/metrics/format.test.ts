import { describe, expect, it } from 'vitest';
import { formatMetricValue } from '../../../src/metrics/format.ts';

describe('formatMetricValue', () => {
  it('formats each unit', () => {
    expect(formatMetricValue(0.95, 'ratio')).toBe('95.0%');
    expect(formatMetricValue(1, 'ratio')).toBe('100.0%');
    expect(formatMetricValue(1.25, 'seconds')).toBe('1.25s');
    expect(formatMetricValue(12.345, 'seconds')).toBe('12.3s');
    expect(formatMetricValue(123.4, 'seconds')).toBe('123s');
    expect(formatMetricValue(0.0123, 'usd')).toBe('$0.0123');
    expect(formatMetricValue(12.5, 'usd')).toBe('$12.50');
    expect(formatMetricValue(0, 'usd')).toBe('$0.00');
    expect(formatMetricValue(0.000012, 'usd')).toBe('$0.000012');
    expect(formatMetricValue(1234.4, 'tokens')).toBe('1234');
    expect(formatMetricValue(12.25, 'tokens')).toBe('12.3');
    expect(formatMetricValue(1.5, 'count')).toBe('1.5');
    expect(formatMetricValue(2, 'count')).toBe('2');
    expect(formatMetricValue(12.5, 'minutes')).toBe('12.5 min');
    expect(formatMetricValue(0.8526, 'score')).toBe('0.853');
  });

  it('shows n/a for null, NaN and infinities', () => {
    expect(formatMetricValue(null, 'ratio')).toBe('n/a');
    expect(formatMetricValue(Number.NaN, 'usd')).toBe('n/a');
    expect(formatMetricValue(Number.POSITIVE_INFINITY, 'seconds')).toBe('n/a');
  });
});
