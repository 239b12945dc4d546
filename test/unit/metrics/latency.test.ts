import { describe, expect, it } from 'vitest';
import { agentLatency as latency } from '../../../src/metrics/latency.ts';
import { makeRecord } from '../../helpers/experiments.ts';

describe('latency interval', () => {
  it('never reaches below zero seconds', () => {
    const records = [0.01, 0.01, 0.01, 5].map((s, i) =>
      makeRecord({ task_id: `t${i}`, output: { output: 'x', latency: s } }),
    );
    const result = latency
      .create({})
      .calculate({ records, tasks: records.map((r) => ({ id: r.task_id, weight: 1 })), epochs: 1 });
    expect(result.ci95?.[0]).toBe(0);
    expect(result.ci95?.[1]).toBeGreaterThan(1);
  });
});
