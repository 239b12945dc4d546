import { describe, expect, it } from 'vitest';
import {
  agentLatencyP50,
  agentLatencyP95,
  LatencyColumn,
  agentLatency as latency,
  pooledQuantile,
  sortedPool,
} from '../../../src/metrics/latency.ts';
import { mulberry32 } from '../../../src/stats/bootstrap.ts';
import { sortedQuantile } from '../../../src/stats/descriptive.ts';
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

describe('the latency pool, sorted once', () => {
  it('sorts every value with its unit, and answers every quantile as the units themselves do', () => {
    const random = mulberry32(9);
    for (let round = 0; round < 50; round++) {
      const units = Array.from({ length: 1 + Math.floor(random() * 8) }, () =>
        Array.from({ length: Math.floor(random() * 5) }, () => Math.round(random() * 12) / 4),
      );
      const pool = sortedPool(units);
      expect([...pool.values]).toEqual(units.flat().sort((a, b) => a - b));
      expect([...pool.sizes]).toEqual(units.map((u) => u.length));
      for (const [i, v] of pool.values.entries()) expect(units[pool.owners[i]!]).toContain(v);
      for (const p of [0.05, 0.5, 0.9, 0.95]) {
        const counts = Int32Array.from(units, () => Math.floor(random() * 3));
        expect(pooledQuantile(pool, p)(counts)).toBe(pooledQuantile(units, p)(counts));
      }
    }
  });

  it('gives the same pool and quantiles from latencies in arrival order, units interleaved, as from the units', () => {
    const random = mulberry32(21);
    for (let round = 0; round < 50; round++) {
      const unitCount = 1 + Math.floor(random() * 6);
      const units: number[][] = Array.from({ length: unitCount }, () => []);
      const column = new LatencyColumn();
      // Coarse values: many ties between units. Every unit gets at least one value.
      const arrivals = 1 + Math.floor(random() * 3000);
      for (let i = 0; i < Math.max(arrivals, unitCount); i++) {
        const unit = i < unitCount ? i : Math.floor(random() * unitCount);
        const value = Math.round(random() * 20) / 4;
        units[unit]!.push(value);
        column.push(value, unit);
      }
      const fromUnits = sortedPool(units);
      const fromColumn = column.sorted(unitCount);
      expect(column.length).toBe(fromUnits.values.length);
      expect(fromColumn.values).toEqual(fromUnits.values);
      expect(fromColumn.sizes).toEqual(fromUnits.sizes);
      for (const [i, v] of fromColumn.values.entries()) expect(units[fromColumn.owners[i]!]).toContain(v);
      for (const p of [0.05, 0.5, 0.95]) {
        // A resample's counts, as the bootstrap draws them: as many draws as there are units.
        const counts = new Int32Array(unitCount);
        for (let d = 0; d < unitCount; d++) counts[Math.floor(random() * unitCount)]! += 1;
        const got = pooledQuantile(fromColumn, p)(counts);
        expect(got).toBe(pooledQuantile(fromUnits, p)(counts));
        // Independently: the resample built out, sorted, and its type-7 quantile.
        const resample = units.flatMap((u, i) => Array.from({ length: counts[i]! }, () => u).flat());
        expect(got).toBeCloseTo(sortedQuantile(Float64Array.from(resample).sort(), p)!, 12);
      }
    }
  });

  it('gives a percentile of every latency folded so far, also after a result was read', () => {
    const context = {
      tasks: [
        { id: 'a', weight: 1 },
        { id: 'b', weight: 1 },
      ],
      epochs: 1,
      shared: new Map(),
    };
    const p50 = agentLatencyP50.create({}).fold?.(context);
    const p95 = agentLatencyP95.create({}).fold?.(context);
    const add = (task: string, latency: number) => {
      const record = makeRecord({ task_id: task, output: { output: 'x', latency } });
      p50?.add(record);
      p95?.add(record);
    };
    add('a', 1);
    add('b', 3);
    const before = [p50?.result().value, p95?.result().value, p95?.result().ci95];
    expect(before.slice(0, 2)).toEqual([2, 2.9]);
    add('a', 5);
    add('b', 7);
    expect(p50?.result().value).toBe(4);
    expect(p95?.result().value).toBeCloseTo(6.7, 12);
    expect(p95?.result().ci95).not.toEqual(before[2]);
  });
});
