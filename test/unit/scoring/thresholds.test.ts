import { describe, expect, it } from 'vitest';
import type { MetricResult } from '../../../src/core/experiment.ts';
import { ThresholdSchema } from '../../../src/core/suite.ts';
import { formatMetricNumber, isPercentMetric, metricCells } from '../../../src/scoring/metric-format.ts';
import { checkThresholds } from '../../../src/scoring/thresholds.ts';

function metric(name: string, value: number | null, extra: Partial<MetricResult> = {}): MetricResult {
  return {
    name,
    value,
    formatted_value: value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`,
    direction: 'higher_is_better',
    n: value === null ? 0 : 25,
    stderr: null,
    ci95: null,
    description: '',
    details: {},
    ...extra,
  };
}

const latency = (value: number) =>
  metric('latency', value, { formatted_value: `${value}s`, unit: 'seconds' });
const t = (threshold: Record<string, unknown>) => ThresholdSchema.parse(threshold);

describe('checkThresholds', () => {
  it('reports a value below the minimum with a readable message', () => {
    const violations = checkThresholds([metric('success_rate', 0.72)], { success_rate: t({ minimum: 0.8 }) });
    expect(violations).toEqual([
      {
        metric: 'success_rate',
        condition: 'minimum',
        threshold: 0.8,
        actual: 0.72,
        message: 'success_rate 72.0% is below the minimum 80.0%',
      },
    ]);
  });

  it('reports a value above the maximum in the metric unit', () => {
    const violations = checkThresholds([latency(2.5)], { latency: t({ maximum: 2 }) });
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ condition: 'maximum', threshold: 2, actual: 2.5 });
    expect(violations[0]?.message).toBe('latency 2.5s is above the maximum 2s');
  });

  it('passes values inside the bounds and exactly on them', () => {
    const thresholds = { success_rate: t({ minimum: 0.8, maximum: 0.9 }), latency: t({ maximum: 2 }) };
    expect(checkThresholds([metric('success_rate', 0.8), latency(2)], thresholds)).toEqual([]);
    expect(checkThresholds([metric('success_rate', 0.9), latency(1)], thresholds)).toEqual([]);
    expect(checkThresholds([metric('success_rate', 0.85), latency(0)], thresholds)).toEqual([]);
  });

  it('treats a bound met up to float rounding as met, and a real miss as a miss', () => {
    expect(checkThresholds([metric('accuracy', 0.1 + 0.2)], { accuracy: t({ maximum: 0.3 }) })).toEqual([]);
    expect(
      checkThresholds([metric('accuracy', 0.7 - 0.1 - 0.2 + 0.1)], { accuracy: t({ minimum: 0.5 }) }),
    ).toEqual([]);
    expect(checkThresholds([metric('accuracy', 0.7999)], { accuracy: t({ minimum: 0.8 }) })).toHaveLength(1);
  });

  it('reports a threshold on a metric that was not computed as missing', () => {
    const [violation] = checkThresholds([], { success_rate: t({ minimum: 0.8 }) });
    expect(violation).toMatchObject({
      metric: 'success_rate',
      condition: 'missing',
      threshold: 0.8,
      actual: null,
    });
    expect(violation?.message).toBe(
      "success_rate was not computed (add it to the suite's metrics), so its minimum 0.8 cannot be checked",
    );
  });

  it('reports a threshold on a metric with no value (n/a) as missing', () => {
    const [violation] = checkThresholds([metric('cost', null, { unit: 'usd' })], { cost: t({ maximum: 5 }) });
    expect(violation).toMatchObject({ condition: 'missing', threshold: 5, actual: null });
    expect(violation?.message).toBe(
      'cost has no value (n/a: nothing to aggregate, n=0), so its maximum $5.00 cannot be checked',
    );
  });

  it('skips thresholds that only hold a regression rule (checked against a baseline elsewhere)', () => {
    expect(checkThresholds([], { success_rate: t({ max_regression: 0.05 }) })).toEqual([]);
  });

  it('reports several violations, in threshold order', () => {
    const violations = checkThresholds([metric('success_rate', 0.5), latency(9)], {
      latency: t({ maximum: 2 }),
      success_rate: t({ minimum: 0.8 }),
      pass_at_k: t({ minimum: 0.9 }),
    });
    expect(violations.map((v) => `${v.metric}:${v.condition}`)).toEqual([
      'latency:maximum',
      'success_rate:minimum',
      'pass_at_k:missing',
    ]);
  });

  it('handles negative bounds and zero', () => {
    const delta = metric('delta', -0.2, { formatted_value: '-0.2' });
    expect(checkThresholds([delta], { delta: t({ minimum: -0.1 }) })).toHaveLength(1);
    expect(checkThresholds([delta], { delta: t({ minimum: -0.3, maximum: 0 }) })).toEqual([]);
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
    expect(formatMetricNumber({ formatted_value: '$1', unit: 'usd' }, -0.5)).toBe('-$0.5000');
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
