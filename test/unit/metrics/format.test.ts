import { describe, expect, it } from 'vitest';
import {
  formatDifference,
  formatInterval,
  formatMetricNumber,
  formatMetricValue,
  formatPValue,
  isPercentMetric,
  metricCells,
} from '../../../src/metrics/format.ts';
import { rateMetric as metric } from '../../helpers/experiments.ts';

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

// Issue 10 item 13 and 22: one precision rule per unit, in every report.
describe('one precision rule per unit', () => {
  it('shows a real 12% drop of a small cost (not "$0.0003 → $0.0003")', () => {
    expect(formatMetricValue(0.000312, 'usd')).toBe('$0.000312');
    expect(formatMetricValue(0.000275, 'usd')).toBe('$0.000275');
    expect(formatMetricValue(0.0003, 'usd')).not.toBe(formatMetricValue(0.0003 * 0.88, 'usd'));
  });

  it('prints float noise as zero and never writes an exponent (not "±$7.2e-21")', () => {
    expect(formatMetricNumber({ formatted_value: '$0.02', unit: 'usd' }, 7.2e-21)).toBe('$0.00');
    expect(formatMetricNumber({ formatted_value: '1', unit: 'seconds' }, 3e-17)).toBe('0s');
    for (const x of [1e-7, 3.3e-9, 0.00000123, 1e21 / 1e30]) {
      for (const unit of ['usd', 'seconds', 'ratio', 'score', 'count'] as const)
        expect(formatMetricValue(x, unit)).not.toMatch(/e[-+]/);
    }
  });

  it('gives a latency, its error bar and its interval the same significant digits', () => {
    const latency = metric('latency', 0.00327, {
      formatted_value: '0.00s',
      unit: 'seconds',
      stderr: 0.000817,
      ci95: [0.0017, 0.00489],
    });
    expect(metricCells(latency)).toMatchObject({
      value: '0.00327s',
      margin: '±0.000817s',
      interval: '[0.0017s, 0.00489s]',
    });
  });

  it('writes a rate interval in percent like its value (not "96.0% 95% CI [0.882, 1.000]")', () => {
    expect(formatInterval({ formatted_value: '96.0%', unit: 'ratio' }, [0.882, 1])).toBe('[88.2%, 100.0%]');
  });

  it('writes differences with a sign, rates in percentage points', () => {
    const rate = { formatted_value: '50.0%', unit: 'ratio' };
    expect(formatDifference(rate, 0.15)).toBe('+15.0 pp');
    expect(formatDifference(rate, -0.0004)).toBe('-0.04 pp');
    expect(formatDifference({ formatted_value: '$1', unit: 'usd' }, -0.00153418)).toBe('-$0.00153');
    expect(formatDifference({ formatted_value: '1s', unit: 'seconds' }, 0)).toBe('0s');
    expect(formatInterval(rate, [-0.01, 0.2], { difference: true })).toBe('[-1.0 pp, +20.0 pp]');
  });

  it('formats p-values', () => {
    expect(formatPValue(0.0351562)).toBe('0.035');
    expect(formatPValue(1.2e-8)).toBe('<0.001');
    expect(formatPValue(null)).toBe('-');
  });
});

describe('metric formatting', () => {
  it('recognises percentages by unit or by formatted value', () => {
    expect(isPercentMetric({ formatted_value: '80.0%' })).toBe(true);
    expect(isPercentMetric({ formatted_value: '0.8', unit: '%' })).toBe(true);
    expect(isPercentMetric({ formatted_value: '1.2 s', unit: 's' })).toBe(false);
  });

  it('formats numbers in the metric unit', () => {
    expect(formatMetricNumber({ formatted_value: '80%' }, 0.8)).toBe('80.0%');
    expect(formatMetricNumber({ formatted_value: '0.8', unit: 'ratio' }, 0.8)).toBe('80.0%');
    expect(formatMetricNumber({ formatted_value: '$1', unit: 'usd' }, 0.0123)).toBe('$0.0123');
    expect(formatMetricNumber({ formatted_value: '$1', unit: 'usd' }, 12.5)).toBe('$12.50');
    expect(formatMetricNumber({ formatted_value: '$1', unit: 'usd' }, -0.5)).toBe('-$0.5');
    expect(formatMetricNumber({ formatted_value: '1s', unit: 'seconds' }, 1.5)).toBe('1.5s');
    expect(formatMetricNumber({ formatted_value: '1', unit: 'tokens' }, 1234.4)).toBe('1234');
    expect(formatMetricNumber({ formatted_value: '1', unit: 'minutes' }, 2.25)).toBe('2.25 min');
    expect(formatMetricNumber({ formatted_value: '1', unit: 'score' }, 0.5)).toBe('0.500');
    expect(formatMetricNumber({ formatted_value: '1', unit: 'widgets' }, 3)).toBe('3 widgets');
    expect(formatMetricNumber({ formatted_value: '1' }, Number.NaN)).toBe('n/a');
    expect(formatMetricNumber({ formatted_value: '3' }, 1234.5)).toBe('1235');
    expect(formatMetricNumber({ formatted_value: '3' }, 0.000123)).toBe('0.000123');
    expect(formatMetricNumber({ formatted_value: '3' }, 0)).toBe('0');
    expect(formatMetricNumber({ formatted_value: 'n/a' }, null)).toBe('n/a');
  });

  it('builds the cells of a metric row, leaving out what is not known', () => {
    expect(metricCells(metric('success_rate', 0.8, { stderr: 0.062, ci95: [0.676, 0.924] }))).toEqual({
      name: 'success_rate',
      value: '80.0%',
      margin: '±6.2%',
      interval: '[67.6%, 92.4%]',
      n: 'n=25',
    });
    expect(metricCells(metric('cost', null))).toEqual({
      name: 'cost',
      value: 'n/a',
      margin: '',
      interval: '',
      n: 'n=0',
    });
  });
});
