import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Experiment, ExperimentSchema } from '../../src/core/experiment.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';

const fixtures = join(ROOT, 'test/fixtures/gateway');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-gw-any-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function runWith(harness: string): Promise<Experiment> {
  const out = join(dir, `${harness}.json`);
  const result = await cli([
    'run',
    join(fixtures, 'benchmark.yaml'),
    '--harness',
    join(fixtures, harness),
    '--no-store',
    '--no-progress',
    '-o',
    out,
  ]);
  expect(result.stderr).not.toMatch(/error/i);
  expect(result.status).toBe(0);
  return ExperimentSchema.parse(JSON.parse(await readFile(out, 'utf8')));
}

/** What a record says of each model call, in a form two harnesses can be compared by. */
const perCall = (experiment: Experiment) =>
  experiment.records.map((r) => ({
    task: r.task_id,
    calls: r.trace.agent_calls.map((c) => ({
      provider: c.provider,
      model: c.model,
      api: c.metadata['api'],
      tokens_in: c.tokens_in,
      tokens_out: c.tokens_out,
      cached_tokens: c.cached_tokens,
      cache_write_tokens: c.cache_write_tokens,
      reasoning_tokens: c.metadata['reasoning_tokens'],
      stop_reason: c.metadata['stop_reason'],
      tool_calls_requested: c.metadata['tool_calls_requested'],
      cost_usd: c.cost_usd,
    })),
  }));

// List prices (USD per million tokens) of the built-in table.
const SONNET = (1200 * 3 + 300 * 0.3 + 100 * 3.75 + 80 * 15) / 1e6;
const MINI = (900 * 0.4 + 100 * 0.1 + 150 * 1.6) / 1e6;
const GPT41 = (700 * 2 + 40 * 8) / 1e6;
const expectedCalls = [
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    api: 'anthropic-messages',
    tokens_in: 1600,
    tokens_out: 80,
    cached_tokens: 300,
    cache_write_tokens: 100,
    reasoning_tokens: 0,
    stop_reason: 'end_turn',
    tool_calls_requested: [],
  },
  {
    provider: 'openai',
    model: 'gpt-4.1-mini',
    api: 'openai-chat',
    tokens_in: 1000,
    tokens_out: 150,
    cached_tokens: 100,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    stop_reason: 'tool_calls',
    tool_calls_requested: ['save_draft'],
  },
  {
    provider: 'openai',
    model: 'gpt-4.1',
    api: 'openai-responses',
    tokens_in: 700,
    tokens_out: 40,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 10,
    stop_reason: 'completed',
    tool_calls_requested: [],
  },
];

describe('any harness, no HarnessEval code: the gateway records its model calls', () => {
  it('gives the official-client harness and the urllib harness the same per-call records', async () => {
    const [sdk, python] = await Promise.all([runWith('harness-sdk.yaml'), runWith('harness-python.yaml')]);
    for (const experiment of [sdk, python]) {
      expect(experiment.records.map((r) => r.outcome)).toEqual(['pass', 'pass']);
      for (const { calls } of perCall(experiment)) {
        expect(calls.map(({ cost_usd: _cost, ...c }) => c)).toEqual(expectedCalls);
        expect(calls.map((c) => c.cost_usd)).toEqual([
          expect.closeTo(SONNET, 12),
          expect.closeTo(MINI, 12),
          expect.closeTo(GPT41, 12),
        ]);
      }
      for (const r of experiment.records) {
        expect(r.cost_usd).toBeCloseTo(SONNET + MINI + GPT41, 12);
        expect(r.metrics).toMatchObject({ agent_calls: 3, tokens_in: 3300, tokens_out: 270 });
        expect(r.metadata['cost_source']).toBe('price_table');
        // Each trial's calls went through its own route: the task id reached the script.
        expect(r.trace.agent_calls[0]?.metadata['http_status']).toBe(200);
      }
    }
    expect(perCall(python)).toEqual(perCall(sdk));
  });
});
