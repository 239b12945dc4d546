import { describe, expect, it } from 'vitest';
import { AgentCallSchema, agentOutput, emptyTrace } from '../../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { costOf, DEFAULT_PRICES, mergePrices } from '../../../src/instrument/pricing.ts';
import { mergeUsage } from '../../../src/instrument/trial-usage.ts';
import { costTrial } from '../../../src/runner/cost.ts';

const call = (c: Record<string, unknown>) => AgentCallSchema.parse(c);
const noUsage = { tokens_in: 0, tokens_out: 0, cached_tokens: 0, cost_usd: null };

describe('mergeUsage: one cost pass over every source', () => {
  it('keeps reported costs, prices the rest from the table (gpt-4o: $2.5 in, $10 out per million)', () => {
    const merged = mergeUsage(
      {
        calls: [
          call({ role: 'planner', model: 'gpt-4o', tokens_in: 1_000_000, tokens_out: 100_000 }),
          call({ role: 'reviewer', model: 'gpt-4o', tokens_in: 10, tokens_out: 10, cost_usd: 0.25 }),
        ],
      },
      DEFAULT_PRICES,
    );
    expect(merged.usage.cost_usd).toBeCloseTo(3.75, 12);
    expect(merged.status).toBe('complete');
    expect(merged.source).toBe('reported+price_table');
    expect(merged.calls[0]?.metadata).toMatchObject({ cost_from: 'price_table', prices_as_of: '2025-08-01' });
    expect(merged.calls[0]?.metadata['prices_source']).toContain('openai.com');
  });

  it('OpenTelemetry calls without a cost plus a `cost` event: both count ($0.029673 + $0.0005)', () => {
    // The review's trace: 5 chat calls priced from the table, and one cost event from the harness.
    const calls = [
      call({ role: 'planner', model: 'gpt-4o-2024-08-06', tokens_in: 900, tokens_out: 120 }),
      call({ role: 'developer', model: 'claude-sonnet-4-20250514', tokens_in: 2000, tokens_out: 600 }),
      call({ role: 'developer', model: 'claude-sonnet-4-20250514', tokens_in: 2600, tokens_out: 300 }),
      call({ role: 'reviewer', model: 'gpt-4o-mini', tokens_in: 0, tokens_out: 0, error: 'rate_limit' }),
      call({ role: 'reviewer', model: 'gpt-4o-mini', tokens_in: 1500, tokens_out: 80, cached_tokens: 500 }),
    ];
    const merged = mergeUsage(
      { calls, costs: [{ cost_usd: 0.0005, tokens_in: 0, tokens_out: 0 }] },
      DEFAULT_PRICES,
    );
    const tableOnly = mergeUsage({ calls }, DEFAULT_PRICES).usage.cost_usd ?? 0;
    expect(merged.usage.cost_usd).toBeCloseTo(tableOnly + 0.0005, 12);
    expect(merged.usage).toMatchObject({ tokens_in: 7000, tokens_out: 1100, cached_tokens: 500 });
    expect(merged.status).toBe('complete');
  });

  it('marks the cost partial, with the count, when calls that spent tokens have no price', () => {
    const merged = mergeUsage(
      {
        calls: [
          call({ model: 'gpt-4o', tokens_in: 1000, tokens_out: 0, cost_usd: 0.01 }),
          call({ model: 'mystery-model', tokens_in: 500, tokens_out: 50 }),
          call({ model: 'mystery-model', tokens_in: 10, tokens_out: 5 }),
          // An errored call that spent nothing is free, not unpriced.
          call({ model: 'mystery-model', tokens_in: 0, tokens_out: 0, error: 'boom' }),
        ],
      },
      DEFAULT_PRICES,
    );
    expect(merged.usage).toMatchObject({ cost_usd: 0.01, unpriced_calls: 2 });
    expect(merged.status).toBe('partial');
    const nothing = mergeUsage(
      { calls: [call({ model: 'mystery-model', tokens_in: 5, tokens_out: 5 })] },
      DEFAULT_PRICES,
    );
    expect(nothing).toMatchObject({ status: 'unknown', usage: { cost_usd: null, unpriced_calls: 1 } });
  });

  it('counts a call reported twice under the same id once, keeping the cost either report had', () => {
    const merged = mergeUsage(
      {
        calls: [
          call({ id: 'resp_1', role: 'dev', model: 'gpt-4o', tokens_in: 1000, tokens_out: 100 }),
          call({ id: 'resp_1', role: 'dev', tokens_in: 1000, tokens_out: 100, cost_usd: 0.02 }),
          call({ id: 'resp_2', role: 'dev', model: 'gpt-4o', tokens_in: 0, tokens_out: 0 }),
        ],
      },
      DEFAULT_PRICES,
    );
    expect(merged.calls).toHaveLength(2);
    expect(merged.calls[0]).toMatchObject({ model: 'gpt-4o', cost_usd: 0.02 });
    expect(merged.usage).toMatchObject({ tokens_in: 1000, tokens_out: 100, cost_usd: 0.02 });
  });

  it('uses the adapter’s totals only when no call was recorded', () => {
    const adapter = { tokens_in: 2_000_000, tokens_out: 0, cached_tokens: 0, cost_usd: null };
    expect(
      mergeUsage({ calls: [], adapterUsage: adapter, defaultModel: 'gpt-4o' }, DEFAULT_PRICES).usage.cost_usd,
    ).toBe(5);
    expect(
      mergeUsage({ calls: [], adapterUsage: { ...adapter, cost_usd: 0.7 } }, DEFAULT_PRICES).usage.cost_usd,
    ).toBe(0.7);
    // The calls are the detail of the same totals: they win, nothing is counted twice.
    const both = mergeUsage(
      {
        calls: [call({ model: 'gpt-4o', tokens_in: 1000, tokens_out: 0, cost_usd: 0.1 })],
        adapterUsage: { ...adapter, cost_usd: 0.1 },
      },
      DEFAULT_PRICES,
    );
    expect(both.usage).toMatchObject({ tokens_in: 1000, cost_usd: 0.1 });
    expect(mergeUsage({ calls: [], adapterUsage: noUsage }, DEFAULT_PRICES).status).toBe('unknown');
  });
});

describe('prices', () => {
  it('price cache writes: the Claude transcript of the review costs its total_cost_usd 0.0588465', () => {
    // input 33 + cache writes 5350 + cache reads 88300 (all in tokens_in), output 813.
    const cost = costOf(DEFAULT_PRICES, {
      model: 'claude-sonnet-4-20250514',
      tokens_in: 33 + 5350 + 88300,
      cached_tokens: 88300,
      cache_write_tokens: 5350,
      tokens_out: 813,
    });
    expect(cost).toBeCloseTo(0.0588465, 12);
  });

  it('carry their date and source; a harness’s pricing: overrides the table and says so', () => {
    expect(DEFAULT_PRICES).toMatchObject({
      as_of: '2025-08-01',
      source: expect.stringContaining('anthropic.com'),
    });
    const own = mergePrices(DEFAULT_PRICES, { models: { 'gpt-4o': { input: 1, output: 1 } } });
    expect(own.source).toMatch(/and the harness's pricing:$/);
    expect(costOf(own, { model: 'gpt-4o', tokens_in: 1_000_000, tokens_out: 0 })).toBe(1);
    const contract = mergePrices(DEFAULT_PRICES, { as_of: '2026-01-01', source: 'our contract', models: {} });
    expect(contract).toMatchObject({ as_of: '2026-01-01', source: 'our contract' });
  });
});

describe('costTrial', () => {
  it('completes the output’s usage before evaluators see it, and says where the cost came from', () => {
    const harness = HarnessConfigSchema.parse({ adapter: 'function', model: 'gpt-4o' });
    const out = agentOutput({
      output: 'x',
      trace: { ...emptyTrace(), agent_calls: [call({ role: 'dev', tokens_in: 1_000_000, tokens_out: 0 })] },
    });
    const costed = costTrial(out, harness, DEFAULT_PRICES);
    expect(costed.output.usage).toMatchObject({ tokens_in: 1_000_000, cost_usd: 2.5 });
    expect(costed.output.trace?.agent_calls[0]?.cost_usd).toBe(2.5);
    expect(costed.metadata).toMatchObject({ cost_source: 'price_table', prices_as_of: '2025-08-01' });
  });
});
