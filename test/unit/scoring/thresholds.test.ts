import { describe, expect, it } from 'vitest';
import { ThresholdSchema } from '../../../src/core/suite.ts';
import { checkThresholds } from '../../../src/scoring/thresholds.ts';
import { rateMetric as metric } from '../../helpers/experiments.ts';

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
