import { describe, expect, it } from 'vitest';
import { createMetric } from '../../../src/metrics/registry.ts';
import { input, outcomes, record } from './records.ts';

describe('success_rate', () => {
  it('is the share of passes with a Wilson interval (one epoch)', () => {
    // pass pass fail pass: 0.75; s² = 0.25; SE = sqrt(0.25/4) = 0.25. Wilson 3 of 4
    // (statsmodels proportion_confint method='wilson'): [0.30064184258240184, 0.9544127391902995];
    // the Wald interval 0.75 ± 1.96 · 0.25 would be [0.26, 1.24], clipped to 1.
    const result = createMetric('success_rate').calculate(
      input(outcomes({ a: ['pass'], b: ['pass'], c: ['fail'], d: ['pass'] })),
    );
    expect(result.value).toBe(0.75);
    expect(result.formatted_value).toBe('75.0%');
    expect(result.n).toBe(4);
    expect(result.stderr).toBeCloseTo(0.25, 14);
    expect(result.ci95?.[0]).toBeCloseTo(0.30064184258240184, 12);
    expect(result.ci95?.[1]).toBeCloseTo(0.9544127391902995, 12);
    expect(result.ci_method).toBe('wilson');
    expect(result.direction).toBe('higher_is_better');
    expect(result.unit).toBe('ratio');
  });

  it('computes the SE over per-task means when there are epochs, not over trials', () => {
    // t1 PP, t2 FF, t3 PF, t4 PP -> task means 1 0 .5 1, mean .625
    // over tasks: SE = sqrt(.6875/3/4) = 0.239357 (n = 4); trials as if independent would give 0.182981 (n = 8)
    const records = outcomes({
      t1: ['pass', 'pass'],
      t2: ['fail', 'fail'],
      t3: ['pass', 'fail'],
      t4: ['pass', 'pass'],
    });
    const result = createMetric('success_rate').calculate(input(records, { epochs: 2 }));
    expect(result.value).toBe(0.625);
    expect(result.n).toBe(4);
    expect(result.stderr).toBeCloseTo(Math.sqrt(0.6875 / 12), 14);
    expect(result.stderr).not.toBeCloseTo(0.18298126367784998, 3);
    expect(result.details).toMatchObject({
      trials: 8,
      tasks: 4,
      epochs: 2,
      stderr_method: 'clt_over_task_means',
    });
    // Wilson at the effective n = p(1-p) / (SE² · 3/4) = 5.4545 (statsmodels, float nobs).
    expect(result.ci_method).toBe('wilson_effective_n');
    expect(result.ci95?.[0]).toBeCloseTo(0.257876154259858, 12);
    expect(result.ci95?.[1]).toBeCloseTo(0.8888144370158457, 12);
  });

  it('uses the clustered (CR1) SE when tasks carry clusters', () => {
    // Task means 1 0 | .5 1 in clusters x | y, mean .625: cluster residual sums -.25 | .25;
    // CR1 SE² = G/(G-1) · Σ_c (Σe)² / n² = 2 · .125 / 16 = .015625 -> SE .125. The effective n
    // .625 · .375 / (.015625 / 2) = 30 is capped at the 8 trials: Wilson 5 of 8.
    const records = outcomes({
      t1: ['pass', 'pass'],
      t2: ['fail', 'fail'],
      t3: ['pass', 'fail'],
      t4: ['pass', 'pass'],
    });
    const tasks = [
      { id: 't1', weight: 1, cluster: 'x' },
      { id: 't2', weight: 1, cluster: 'x' },
      { id: 't3', weight: 1, cluster: 'y' },
      { id: 't4', weight: 1, cluster: 'y' },
    ];
    const result = createMetric('success_rate').calculate(input(records, { epochs: 2, tasks }));
    expect(result.stderr).toBeCloseTo(0.125, 14);
    expect(result.details).toMatchObject({ stderr_method: 'clustered_cr1', clusters: 2 });
    expect(result.ci95?.[0]).toBeCloseTo(0.3057423946026273, 12);
    expect(result.ci95?.[1]).toBeCloseTo(0.8631557141764027, 12);
  });

  it('gives no interval, and says why, when every task is in one cluster', () => {
    const records = outcomes({ t1: ['pass'], t2: ['fail'] });
    const tasks = [
      { id: 't1', weight: 1, cluster: 'only' },
      { id: 't2', weight: 1, cluster: 'only' },
    ];
    const result = createMetric('success_rate').calculate(input(records, { tasks }));
    expect(result).toMatchObject({ value: 0.5, stderr: null, ci95: null, n: 2 });
    expect(result.details.stderr_unavailable).toBe('all tasks are in one cluster');
  });

  it('excludes pending trials and counts them; errors count as failures', () => {
    const result = createMetric('success_rate').calculate(
      input(outcomes({ a: ['pass'], b: ['error'], c: ['pending'], d: ['fail'] })),
    );
    // pass, error, fail -> 1/3
    expect(result.value).toBeCloseTo(1 / 3, 14);
    expect(result.n).toBe(3);
    expect(result.details).toMatchObject({ pending: 1, trials: 3 });
  });

  it('gives n/a for empty input, and a single task its Wilson interval but no SE', () => {
    const empty = createMetric('success_rate').calculate(input([]));
    expect(empty).toMatchObject({ value: null, formatted_value: 'n/a', n: 0, stderr: null, ci95: null });
    const onlyPending = createMetric('success_rate').calculate(input(outcomes({ a: ['pending'] })));
    expect(onlyPending).toMatchObject({ value: null, formatted_value: 'n/a', details: { pending: 1 } });
    const single = createMetric('success_rate').calculate(input(outcomes({ a: ['pass'] })));
    // Wilson 1 of 1: [0.2065493143772374, 1] — one trial says little, and the interval says so.
    expect(single).toMatchObject({ value: 1, n: 1, stderr: null, ci_method: 'wilson' });
    expect(single.ci95?.[0]).toBeCloseTo(0.2065493143772374, 12);
    expect(single.ci95?.[1]).toBe(1);
  });

  it('exposes per-task means for paired comparisons', () => {
    const records = outcomes({ t1: ['pass', 'fail'], t2: ['pass', 'pass'] });
    expect(createMetric('success_rate').perTask?.(input(records, { epochs: 2 }))).toEqual(
      new Map([
        ['t1', 0.5],
        ['t2', 1],
      ]),
    );
  });
});

describe('error_rate', () => {
  it('is the share of errors among trials; a pending trial ran without an error, so it counts as none', () => {
    const result = createMetric('error_rate').calculate(
      input(outcomes({ a: ['error'], b: ['pass'], c: ['pending'], d: ['fail'] })),
    );
    expect(result.value).toBeCloseTo(1 / 4, 14);
    expect(result.direction).toBe('lower_is_better');
  });
});

describe('accuracy', () => {
  it('averages evaluator scores per trial, with fallbacks', () => {
    const records = [
      // mean of evaluator scores (1 + 0.5) / 2 = 0.75
      record({
        task_id: 'a',
        outcome: 'pass',
        evaluations: [
          { evaluator: 'exact_match', score: 1, passed: true, explanation: '' },
          { evaluator: 'regex', score: 0.5, passed: false, explanation: '' },
        ],
      }),
      // errored and never evaluated: 0
      record({ task_id: 'b', outcome: 'error' }),
      // no evaluators: overall score 0.6
      record({ task_id: 'c', outcome: 'fail', scores: { overall: 0.6 } }),
      // nothing at all: pass -> 1
      record({ task_id: 'd', outcome: 'pass' }),
    ];
    // (0.75 + 0 + 0.6 + 1) / 4 = 0.5875
    expect(createMetric('accuracy').calculate(input(records)).value).toBeCloseTo(0.5875, 14);
  });
});

describe('evaluator_score', () => {
  it('averages one evaluator over the trials it scored', () => {
    const records = [
      record({
        task_id: 'a',
        outcome: 'pass',
        evaluations: [{ evaluator: 'regex', score: 1, passed: true, explanation: '' }],
      }),
      record({
        task_id: 'b',
        outcome: 'fail',
        evaluations: [{ evaluator: 'regex', score: 0.2, passed: false, explanation: '' }],
      }),
      record({
        task_id: 'c',
        outcome: 'pass',
        evaluations: [{ evaluator: 'other', score: 1, passed: true, explanation: '' }],
      }),
    ];
    const result = createMetric({ name: 'evaluator_score', options: { evaluator: 'regex' } }).calculate(
      input(records),
    );
    expect(result.name).toBe('evaluator_score:regex');
    expect(result.value).toBeCloseTo(0.6, 14);
    expect(result.formatted_value).toBe('0.600');
    expect(result.details).toMatchObject({ trials_without_evaluator: 1 });
  });
});

describe('pass@k and pass^k', () => {
  // t1 P F F (n=3, c=1), t2 P P F (c=2), t3 F F F (c=0), k = 2
  // pass@2: t1 1 - C(2,2)/C(3,2) = 2/3; t2 1 (n - c = 1 < 2); t3 0 -> mean 5/9
  //   SE: deviations 1/9 4/9 -5/9, Σ² = 42/81, s² = 21/81, SE = sqrt(21/81/3) = sqrt(7/81)
  // pass^2: t1 0; t2 C(2,2)/C(3,2) = 1/3; t3 0 -> mean 1/9
  const records = outcomes({
    t1: ['pass', 'fail', 'fail'],
    t2: ['pass', 'pass', 'fail'],
    t3: ['fail', 'fail', 'fail'],
  });

  it('averages the unbiased per-task estimates', () => {
    const at = createMetric('pass@2').calculate(input(records, { epochs: 3 }));
    expect(at.name).toBe('pass@2');
    expect(at.value).toBeCloseTo(5 / 9, 14);
    expect(at.n).toBe(3);
    expect(at.stderr).toBeCloseTo(Math.sqrt(7 / 81), 14);
    const hat = createMetric({ name: 'pass_hat_k', options: { k: 2 } }).calculate(
      input(records, { epochs: 3 }),
    );
    expect(hat.name).toBe('pass^2');
    expect(hat.value).toBeCloseTo(1 / 9, 14);
  });

  it('skips tasks with fewer than k finished trials and says so', () => {
    const short = [...records, ...outcomes({ t4: ['pass', 'pending'] })];
    const result = createMetric('pass@2').calculate(input(short, { epochs: 3 }));
    expect(result.value).toBeCloseTo(5 / 9, 14);
    expect(result.details).toMatchObject({ k: 2, pending: 1, tasks_with_fewer_than_k_trials: 1 });
    expect(createMetric('pass@5').calculate(input(records, { epochs: 3 }))).toMatchObject({
      value: null,
      formatted_value: 'n/a',
    });
  });

  it('pass@1 equals the success rate', () => {
    expect(createMetric('pass@1').calculate(input(records, { epochs: 3 })).value).toBeCloseTo(
      createMetric('success_rate').calculate(input(records, { epochs: 3 })).value!,
      14,
    );
  });
});
