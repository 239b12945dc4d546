import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { SuiteSchema } from '../../../src/core/suite.ts';
import { runExperiment } from '../../../src/runner/runner.ts';
import { aggregateExperiment } from '../../../src/scoring/experiment-aggregate.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { SqliteStore } from '../../../src/store/sqlite-store.ts';
import type { ExperimentStore } from '../../../src/store/types.ts';

const harness = HarnessConfigSchema.parse({ name: 'seeded', version: '1.0.0', adapter: 'in-process' });

const suite = SuiteSchema.parse({
  id: 'streaming',
  tasks: Array.from({ length: 12 }, (_, i) => ({
    id: `t${i}`,
    input: `task ${i}`,
    expected: `answer ${i}`,
    weight: 1 + (i % 3),
  })),
  thresholds: { success_rate: { min: 0.9 } },
});

/** mulberry32: the same trials on every run of the test. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Passes, wrong answers and errors, with latency, tokens and cost drawn from the seed. */
function seededAgent(seed: number): AgentV1 {
  const random = seeded(seed);
  return {
    specificationVersion: 'v1',
    name: 'seeded',
    async run(input) {
      const draw = random();
      const usage = { tokens_in: Math.floor(random() * 900), tokens_out: 40, cost_usd: random() / 100 };
      const latency = 0.01 + random();
      if (draw < 0.15)
        return agentOutput({ output: null, error: 'boom', error_kind: 'crash', latency, usage });
      const output = draw < 0.5 ? 'wrong' : String(input).replace('task', 'answer');
      return agentOutput({ output, latency, usage });
    },
  };
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-streaming-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const stores: [string, () => ExperimentStore][] = [
  ['memory', () => new MemoryStore()],
  ['sqlite', () => new SqliteStore(join(dir, `${Date.now()}-${Math.random()}.db`))],
];

describe.each(stores)('runExperiment with keepRecords: false (%s store)', (_name, open) => {
  it('streams records to the store and computes the metrics the whole records give', async () => {
    const store = open();
    try {
      const seen: string[] = [];
      const experiment = await runExperiment({
        suite,
        harness,
        agent: seededAgent(7),
        store,
        keepRecords: false,
        settings: { epochs: 3, concurrency: 4 },
        onEvent: (event) => {
          if (event.type === 'trial_end') seen.push(event.record.run_id);
        },
      });
      expect(experiment.records).toEqual([]);
      expect(seen).toHaveLength(36);
      const stored = await store.getExperiment(experiment.id);
      expect(stored?.records).toHaveLength(36);
      const outcomes = new Set(stored?.records.map((r) => r.outcome));
      expect(outcomes).toEqual(new Set(['pass', 'fail', 'error']));
      // The old way: every metric from the whole records, read back from the store.
      const whole = aggregateExperiment({
        suite,
        records: stored?.records ?? [],
        tasks: suite.tasks,
        epochs: 3,
      });
      expect(experiment.metrics).toEqual(whole.metrics);
      expect(experiment.scores).toEqual(whole.scores);
      expect(experiment.outcome).toEqual(whole.outcome);
      expect(experiment.violations).toEqual(whole.violations);
      expect(stored?.metrics).toEqual(whole.metrics);
    } finally {
      await store.close();
    }
  });
});

describe('runExperiment keeps its records by default', () => {
  it('returns every record, as before', async () => {
    const experiment = await runExperiment({
      suite,
      harness,
      agent: seededAgent(7),
      settings: { epochs: 2 },
    });
    expect(experiment.records).toHaveLength(24);
    expect(
      experiment.records.some((r) => r.output.output !== null && r.evaluations[0]?.explanation !== ''),
    ).toBe(true);
  });
});
