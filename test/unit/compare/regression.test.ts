import { describe, expect, it } from 'vitest';
import { compareExperiments } from '../../../src/compare/compare.ts';
import { checkRegressions } from '../../../src/compare/regression.ts';
import { experimentOf } from '../../helpers/comparison.ts';

const tasks = ['t1', 't2', 't3', 't4', 't5', 't6'];

/** A: every task scores 0.8 at cost $1. B scores `scores` at cost $1.2. */
function comparisonWith(scores: readonly number[]) {
  const a = experimentOf(
    'a',
    tasks.map((task) => ({ task, score: 0.8, cost: 1 })),
  );
  const b = experimentOf(
    'b',
    tasks.map((task, i) => ({ task, score: scores[i]!, cost: 1.2 })),
  );
  return compareExperiments([a, b]);
}

// Accuracy 0.8 -> 0.7 on every task: 12.5% worse, and significant (every difference is -0.1).
const consistentDrop = [0.7, 0.7, 0.7, 0.7, 0.7, 0.7];
// Mean 0.76 (5% worse) but noisy: diffs -.5, +.2, 0, +.2, -.1, 0 -> not significant.
const noisyDrop = [0.3, 1, 0.8, 1, 0.7, 0.76];

describe('checkRegressions', () => {
  it('absolute minimum and maximum on the candidate', () => {
    const c = comparisonWith(consistentDrop);
    const v = checkRegressions(c, {
      accuracy: { minimum: 0.75, require_significant: false },
      cost_per_task: { maximum: 1.1, require_significant: false },
    });
    expect(v.map((x) => [x.metric, x.condition, x.threshold])).toEqual([
      ['accuracy', 'minimum', 0.75],
      ['cost_per_task', 'maximum', 1.1],
    ]);
    expect(v[0]!.actual).toBeCloseTo(0.7, 10);
    expect(v[0]!.message).toBe('accuracy 70.0% is below the minimum 75.0%');
    expect(v[1]!.message).toBe('cost_per_task $1.20 is above the maximum $1.10');
    expect(checkRegressions(c, { accuracy: { minimum: 0.7, require_significant: false } })).toEqual([]);
  });

  it('max_regression is relative and direction-aware', () => {
    const c = comparisonWith(consistentDrop);
    const v = checkRegressions(c, {
      accuracy: { max_regression: 0.1, require_significant: false },
      cost_per_task: { max_regression: 0.25, require_significant: false },
    });
    // Accuracy is 12.5% worse (> 10%); cost is 20% worse (< 25%).
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({
      metric: 'accuracy',
      condition: 'max_regression',
      threshold: 0.1,
    });
    expect(v[0]!.baseline).toBeCloseTo(0.8, 10);
    expect(v[0]!.worsening).toBeCloseTo(0.125, 10);
    expect(v[0]!.message).toMatch(
      /^accuracy 80\.0% → 70\.0% over 6 shared tasks is 12\.5% worse \(allowed: 10\.0%, p = 0\.031 from this metric's own paired test\)$/,
    );
    const cost = checkRegressions(c, { cost_per_task: { max_regression: 0.1, require_significant: false } });
    expect(cost[0]).toMatchObject({ metric: 'cost_per_task', condition: 'max_regression' });
    expect(cost[0]!.worsening).toBeCloseTo(0.2, 10);
  });

  it('an improvement never breaks max_regression', () => {
    const c = comparisonWith([0.9, 0.9, 0.9, 0.9, 0.9, 0.9]);
    expect(checkRegressions(c, { accuracy: { max_regression: 0, require_significant: false } })).toEqual([]);
  });

  it('require_significant: only a significant regression counts', () => {
    const noisy = comparisonWith(noisyDrop);
    const rule = { accuracy: { max_regression: 0.01, require_significant: true } };
    expect(noisy.metrics.find((m) => m.name === 'accuracy')!.deltas[0]!.paired!.significant).toBe(false);
    expect(checkRegressions(noisy, rule)).toEqual([]);
    expect(
      checkRegressions(noisy, { accuracy: { max_regression: 0.01, require_significant: false } }),
    ).toHaveLength(1);
    const consistent = checkRegressions(comparisonWith(consistentDrop), rule);
    expect(consistent).toHaveLength(1);
    expect(consistent[0]!.message).toContain('significant regressions only');
    expect(consistent[0]!.p_value).toBeLessThan(0.05);
  });

  it('a rule on a metric without a value is a missing violation', () => {
    const c = comparisonWith(consistentDrop);
    const v = checkRegressions(c, { latency_p95: { maximum: 2, require_significant: false } });
    expect(v).toEqual([
      expect.objectContaining({ metric: 'latency_p95', condition: 'missing', actual: null, threshold: 2 }),
    ]);
  });

  it('a worsening from a zero baseline exceeds any relative limit, and stays JSON-safe', () => {
    const a = experimentOf('a', [
      { task: 't1', hitl: 0 },
      { task: 't2', hitl: 0 },
    ]);
    const b = experimentOf('b', [
      { task: 't1', hitl: 1 },
      { task: 't2', hitl: 0 },
    ]);
    const v = compareExperiments([a, b], {
      thresholds: { hitl_unplanned: { max_regression: 0.5, require_significant: false } },
    }).violations;
    expect(v).toHaveLength(1);
    expect(v[0]!.worsening).toBeUndefined();
    expect(v[0]!.message).toContain('worse than a baseline of 0');
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
  });
});
