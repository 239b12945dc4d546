import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { Experiment } from '../../src/core/experiment.ts';
import { RunRecordSchema } from '../../src/core/run-record.ts';
import { loadHarnessConfig, loadSuite } from '../../src/formats/index.ts';
import { runExperiment } from '../../src/runner/runner.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const example = join(root, 'examples/event-harness');
const harnessFile = join(example, 'harness.yaml');

async function runDemo(env: Record<string, string> = {}): Promise<Experiment> {
  const suite = await loadSuite(join(example, 'benchmark.yaml'));
  const harness = await loadHarnessConfig(harnessFile);
  const withEnv = { ...harness, options: { ...harness.options, env } };
  return runExperiment({
    suite,
    harness: withEnv,
    harnessBaseDir: dirname(harnessFile),
    settings: { concurrency: 2, seed: 1 },
  });
}

const record = (experiment: Experiment, id: string) => {
  const found = experiment.records.find((r) => r.task_id === id);
  if (found === undefined) throw new Error(`no record for ${id}`);
  return found;
};

describe('the Python event-protocol harness (examples/event-harness)', () => {
  it('answers every task and reports its events into the run records', async () => {
    const experiment = await runDemo();
    expect(experiment.records).toHaveLength(5);
    for (const r of experiment.records) {
      expect(RunRecordSchema.safeParse(r).success).toBe(true);
      expect(r.outcome).toBe('pass');
      expect(r.trace.malformed_events).toEqual([]);
    }
    // A clean input: planned prompt, three agent calls, planned review and approval.
    const clean = record(experiment, 'slugify-title');
    expect(clean.metrics).toMatchObject({
      prompts_total: 1,
      prompts_planned: 1,
      prompts_unplanned: 0,
      hitl_total: 2,
      hitl_planned: 2,
      hitl_unplanned: 0,
      first_pass_approval: true,
      circuit_breakers_fired: 0,
      agent_calls: 3,
    });
    expect(clean.by_role).toHaveProperty('planner');
    expect(clean.output.tool_calls.map((t) => t.tool_name)).toEqual(['transform_text']);
    // A messy input: the first draft is rejected, a breaker fires, the operator nudges.
    const messy = record(experiment, 'slugify-messy');
    expect(messy.metrics).toMatchObject({
      prompts_unplanned: 1,
      hitl_planned: 2,
      hitl_unplanned: 1,
      first_pass_approval: false,
      circuit_breakers_fired: 1,
      circuit_breaker_types: ['CB2:review-rejection'],
      agent_calls: 4,
    });
    expect(messy.metrics.human_minutes).toBe(6);
    // Tokens come from the agent calls; cost adds the separate `cost` event to the calls' costs.
    const calls = messy.trace.agent_calls;
    expect(messy.metrics.tokens_in).toBe(calls.reduce((s, c) => s + c.tokens_in, 0));
    expect(messy.metrics.tokens_in).toBeGreaterThan(4000);
    const callCost = calls.reduce((s, c) => s + (c.cost_usd ?? 0), 0);
    expect(messy.cost_usd).toBeCloseTo(callCost + 0.0005, 9);
  }, 60_000);

  it('reports a malformed event line in trace.malformed_events without failing the run', async () => {
    const experiment = await runDemo({ EVENT_HARNESS_MALFORMED: '1' });
    const r = record(experiment, 'count-words');
    expect(r.outcome).toBe('pass');
    expect(r.trace.malformed_events).toHaveLength(1);
    expect(r.trace.malformed_events[0]?.error).toMatch(/not JSON/);
    // The well-formed lines around it still count.
    expect(r.metrics.agent_calls).toBe(3);
    expect(r.metrics.first_pass_approval).toBe(true);
  }, 60_000);

  it('writes only lines that the published JSON Schema accepts', async () => {
    const schema = JSON.parse(await readFile(join(root, 'schemas/harness-events.schema.json'), 'utf8'));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    const { spawnSync } = await import('node:child_process');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'event-harness-'));
    const events = join(dir, 'events.jsonl');
    for (const input of ['slugify: A  B', 'count words: one two', 'multiply: 3']) {
      const run = spawnSync('python3', [join(example, 'harness.py')], {
        input,
        env: { PATH: process.env['PATH'] ?? '', HARNESSEVAL_EVENTS: events },
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
    }
    const lines = (await readFile(events, 'utf8')).trim().split('\n');
    expect(new Set(lines.map((l) => JSON.parse(l).type))).toEqual(
      new Set(['prompt', 'agent_call', 'tool_call', 'human', 'circuit_breaker', 'cost']),
    );
    for (const line of lines) expect(validate(JSON.parse(line)), line).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});
