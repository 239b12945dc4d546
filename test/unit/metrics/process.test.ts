import { describe, expect, it } from 'vitest';
import { createMetric } from '../../../src/metrics/registry.ts';
import { input, record } from './records.ts';

describe('process metrics (seed 004)', () => {
  const records = [
    record({
      task_id: 'a',
      outcome: 'pass',
      metrics: {
        prompts_total: 3,
        prompts_unplanned: 1,
        hitl_total: 2,
        hitl_unplanned: 1,
        first_pass_approval: true,
        circuit_breakers_fired: 0,
        human_minutes: 10,
        acceptance_criteria_passed: 3,
        acceptance_criteria_total: 4,
      },
      scores: { overall: 0.8 },
    }),
    record({
      task_id: 'b',
      outcome: 'fail',
      metrics: {
        prompts_total: 5,
        prompts_unplanned: 2,
        hitl_total: 4,
        hitl_unplanned: 0,
        first_pass_approval: false,
        circuit_breakers_fired: 2,
        human_minutes: 20,
      },
      scores: { overall: 0.4, functional_completeness: 0.5 },
    }),
    // No review happened: not counted in first-pass approval; pending: not in overall score.
    record({
      task_id: 'c',
      outcome: 'pending',
      metrics: { prompts_total: 1, first_pass_approval: null, human_minutes: 0 },
      scores: { overall: 0.1 },
    }),
  ];
  const data = input(records);

  it('averages the counts over runs', () => {
    // prompts_total (3 + 5 + 1)/3 = 3; unplanned (1 + 2 + 0)/3 = 1; hitl_total 2; hitl_unplanned 1/3
    expect(createMetric('prompts_total').calculate(data).value).toBe(3);
    expect(createMetric('prompts_unplanned').calculate(data).value).toBe(1);
    expect(createMetric('hitl_total').calculate(data).value).toBe(2);
    expect(createMetric('hitl_unplanned').calculate(data).value).toBeCloseTo(1 / 3, 14);
    expect(createMetric('circuit_breakers').calculate(data).value).toBeCloseTo(2 / 3, 14);
    const minutes = createMetric('human_time_min').calculate(data);
    expect(minutes.value).toBe(10);
    expect(minutes.formatted_value).toBe('10 min');
  });

  it('counts first-pass approval only over reviewed runs', () => {
    const result = createMetric('first_pass_approval_rate').calculate(data);
    expect(result.value).toBe(0.5);
    expect(result.n).toBe(2);
    expect(result.details).toMatchObject({ not_reviewed: 1 });
  });

  it('averages overall score over graded runs and functional completeness from scores or counts', () => {
    const overall = createMetric('overall_score').calculate(data);
    expect(overall.value).toBeCloseTo(0.6, 14);
    expect(overall.details).toMatchObject({ pending: 1 });
    // a: 3/4 from counts; b: 0.5 from scores; c: no criteria -> skipped
    const functional = createMetric('functional_completeness').calculate(data);
    expect(functional.value).toBeCloseTo(0.625, 14);
    expect(functional.details).toMatchObject({ no_criteria: 1 });
  });

  it('gives n/a when no run was reviewed', () => {
    const result = createMetric('first_pass_approval_rate').calculate(
      input([record({ task_id: 'a', outcome: 'pass' })]),
    );
    expect(result).toMatchObject({ value: null, formatted_value: 'n/a' });
  });
});
