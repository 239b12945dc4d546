import { describe, expect, it } from 'vitest';
import { pooledQuantile } from '../../../src/metrics/latency.ts';
import { createMetric } from '../../../src/metrics/registry.ts';
import { mulberry32 } from '../../../src/stats/bootstrap.ts';
import { quantile } from '../../../src/stats/descriptive.ts';
import { input, record } from './records.ts';

const Z = 1.959963984540054;

describe('latency', () => {
  it('agent_latency is what the adapter measured, never the trial duration in its place', () => {
    const records = [
      record({ task_id: 'a', outcome: 'pass', output: { output: 'x', latency: 1 }, duration_seconds: 9 }),
      // the adapter measured nothing (0): left out and counted, not replaced by the duration 2.5
      record({ task_id: 'b', outcome: 'pass', output: { output: 'x' }, duration_seconds: 2.5 }),
      record({
        task_id: 'c',
        outcome: 'pending',
        output: { output: 'x', latency: 1.5 },
        duration_seconds: 4,
      }),
    ];
    // mean (1 + 1.5) / 2 = 1.25; pending trials took time too, so they count
    const result = createMetric('agent_latency').calculate(input(records));
    expect(result.value).toBeCloseTo(1.25, 14);
    expect(result.formatted_value).toBe('1.25s');
    expect(result.details).toMatchObject({ unmeasured: 1 });
    expect(result.direction).toBe('lower_is_better');
    // trial_duration is the wall clock of every trial: (9 + 2.5 + 4) / 3
    expect(createMetric('trial_duration').calculate(input(records)).value).toBeCloseTo(15.5 / 3, 14);
  });

  const latencies = [1, 2, 3, 4, 10];
  const records = latencies.map((latency, i) =>
    record({ task_id: `t${i}`, outcome: 'pass', output: { output: 'x', latency } }),
  );

  it('computes p50 and p95 by linear interpolation', () => {
    // sorted 1 2 3 4 10: p50 h = 2 -> 3; p95 h = 3.8 -> 4 + 0.8 × 6 = 8.8
    expect(createMetric('latency_p50').calculate(input(records)).value).toBe(3);
    const p95 = createMetric('latency_p95').calculate(input(records));
    expect(p95.value).toBeCloseTo(8.8, 12);
    expect(p95.details).toMatchObject({ stderr_method: 'bootstrap', trials: 5, tasks: 5 });
  });

  it('gives percentile intervals that are reproducible and bracket the value', () => {
    const first = createMetric('latency_p50').calculate(input(records));
    const again = createMetric('latency_p50').calculate(input(records));
    expect(again).toEqual(first);
    expect(first.ci95).not.toBeNull();
    expect(first.ci95![0]).toBeLessThanOrEqual(3);
    expect(first.ci95![1]).toBeGreaterThanOrEqual(3);
    expect(first.stderr).toBeGreaterThan(0);
  });

  it('handles empty and single input', () => {
    expect(createMetric('latency_p95').calculate(input([]))).toMatchObject({
      value: null,
      formatted_value: 'n/a',
    });
    const one = createMetric('latency_p95').calculate(input(records.slice(0, 1)));
    expect(one).toMatchObject({ value: 1, stderr: null, ci95: null, n: 1 });
  });
});

describe('tokens', () => {
  it('uses reported usage, else tracked process tokens', () => {
    const records = [
      record({
        task_id: 'a',
        outcome: 'pass',
        output: { output: 'x', usage: { tokens_in: 100, tokens_out: 10 } },
      }),
      record({ task_id: 'b', outcome: 'pass', metrics: { tokens_in: 300, tokens_out: 30 } }),
    ];
    expect(createMetric('tokens_in').calculate(input(records)).value).toBe(200);
    expect(createMetric('tokens_out').calculate(input(records)).value).toBe(20);
  });
});

describe('cost metrics', () => {
  // t1 $0.2 pass, t2 $0.4 fail, t3 $0.3 pass, t4 $0.1 pass, t5 cost unknown
  const records = [
    record({ task_id: 't1', outcome: 'pass', cost_usd: 0.2 }),
    record({ task_id: 't2', outcome: 'fail', cost_usd: 0.4 }),
    record({ task_id: 't3', outcome: 'pass', cost_usd: 0.3 }),
    record({ task_id: 't4', outcome: 'pass', cost_usd: 0.1 }),
    record({ task_id: 't5', outcome: 'pass', cost_usd: null }),
  ];

  it('totals known costs and counts the unknown', () => {
    // total 1.0; per-task costs .2 .4 .3 .1, mean .25, deviations -.05 .15 .05 -.15:
    // s² = (.0025 + .0225 + .0025 + .0225)/3 = 1/60; SE(mean) = sqrt(1/60/4) = sqrt(1/240); SE(total) = 4 × that
    const result = createMetric('cost').calculate(input(records));
    expect(result.value).toBeCloseTo(1, 14);
    expect(result.formatted_value).toBe('$1.00');
    expect(result.stderr).toBeCloseTo(4 * Math.sqrt(1 / 240), 14);
    expect(result.details).toMatchObject({ unknown_cost: 1, tasks: 4 });
  });

  it('averages cost per trial', () => {
    const result = createMetric('cost_per_task').calculate(input(records));
    expect(result.value).toBeCloseTo(0.25, 14);
    expect(result.formatted_value).toBe('$0.25');
    expect(result.stderr).toBeCloseTo(Math.sqrt(1 / 240), 14);
    expect(result.details).toMatchObject({ unknown_cost: 1 });
  });

  it('divides total cost by successes with a delta-method SE', () => {
    // R = 1.0 / 3; s̄ = 3/4; c - R s in 30ths: -4, 12, -1, -7 (sum 0); z = (4/3)(c - R s)
    // Σz² = (16/9)(210/900); SE = sqrt(Σz² / 3 / 4)
    const result = createMetric('cost_per_success').calculate(input(records));
    expect(result.value).toBeCloseTo(1 / 3, 14);
    expect(result.formatted_value).toBe('$0.333');
    expect(result.stderr).toBeCloseTo(Math.sqrt(((16 / 9) * (210 / 900)) / 12), 14);
    expect(result.ci95?.[0]).toBeCloseTo(Math.max(0, 1 / 3 - Z * result.stderr!), 14);
    expect(result.details).toMatchObject({ successes: 3, unknown_cost: 1, total_cost: 1 });
  });

  it('is n/a with an explanation when nothing passed', () => {
    const failed = [record({ task_id: 'a', outcome: 'fail', cost_usd: 0.5 })];
    const result = createMetric('cost_per_success').calculate(input(failed));
    expect(result).toMatchObject({ value: null, formatted_value: 'n/a', stderr: null, ci95: null });
    expect(String(result.details.reason)).toMatch(/no trial passed/);
    expect(createMetric('cost_per_success').calculate(input([])).details.reason).toMatch(/no trials/);
  });

  it('is n/a when every cost is unknown', () => {
    const unknown = [record({ task_id: 'a', outcome: 'pass', cost_usd: null })];
    expect(createMetric('cost').calculate(input(unknown))).toMatchObject({
      value: null,
      formatted_value: 'n/a',
      details: { unknown_cost: 1 },
    });
    expect(createMetric('cost_per_task').calculate(input(unknown)).value).toBeNull();
  });
});

describe('pooledQuantile (the bootstrap statistic of latency percentiles)', () => {
  it('equals the type-7 quantile of the pooled resample', () => {
    const random = mulberry32(3);
    for (let round = 0; round < 200; round++) {
      const units = Array.from({ length: 1 + Math.floor(random() * 6) }, () =>
        Array.from({ length: 1 + Math.floor(random() * 4) }, () => Math.round(random() * 20) / 2),
      );
      const sample = Array.from({ length: units.length }, () => Math.floor(random() * units.length));
      for (const p of [0, 0.1, 0.5, 0.95, 1]) {
        const expected = quantile(
          sample.flatMap((u) => units[u]!),
          p,
        );
        const counts = new Int32Array(units.length);
        for (const u of sample) counts[u]! += 1;
        expect(pooledQuantile(units, p)(counts)).toBeCloseTo(expected!, 12);
      }
    }
  });
});

describe('tokens nobody counted', () => {
  it('a trial whose tokens nobody counted is left out and counted, never averaged in as 0', () => {
    const records = [
      record({
        task_id: 'a',
        outcome: 'pass',
        output: { output: 'x', usage: { tokens_in: 100, tokens_out: 10 } },
      }),
      record({
        task_id: 'b',
        outcome: 'pass',
        output: { output: 'x', usage: { tokens_unknown: true } },
      }),
      // a counted 0 (a cached answer, say) is a real 0
      record({ task_id: 'c', outcome: 'pass', output: { output: 'x', usage: { tokens_in: 0 } } }),
    ];
    const tokensIn = createMetric('tokens_in').calculate(input(records));
    expect(tokensIn.value).toBe(50);
    expect(tokensIn.details).toMatchObject({ unknown_tokens: 1 });
    expect(createMetric('tokens_out').calculate(input(records)).details).toMatchObject({ unknown_tokens: 1 });
    const none = createMetric('tokens_in').calculate(input([records[1]!]));
    expect(none.value).toBeNull();
  });
});
