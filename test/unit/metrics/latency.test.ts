import { describe, expect, it } from 'vitest';
import { agentLatencyP50, agentLatencyP95, agentLatency as latency } from '../../../src/metrics/latency.ts';
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

describe('latency percentiles with valueOnly', () => {
  it('give the full calculation’s value and leave the bootstrap interval out', () => {
    const records = [0.3, 0.1, 0.4, 0.1, 0.5, 0.9, 0.2].map((s, i) =>
      makeRecord({ task_id: `t${i}`, output: { output: 'x', latency: s } }),
    );
    const input = { records, tasks: records.map((r) => ({ id: r.task_id, weight: 1 })), epochs: 1 };
    for (const metric of [agentLatencyP50, agentLatencyP95]) {
      const full = metric.create({}).calculate(input);
      const valueOnly = metric.create({}).calculate({ ...input, valueOnly: true });
      expect(full.ci95).not.toBeNull();
      expect(valueOnly.value).toBe(full.value);
      expect(valueOnly.ci95).toBeNull();
      expect(valueOnly.stderr).toBeNull();
    }
  });
});
