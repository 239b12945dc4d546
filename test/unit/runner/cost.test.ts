import { describe, expect, it } from 'vitest';
import { agentOutput, emptyTrace } from '../../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { DEFAULT_PRICES, mergePrices } from '../../../src/instrument/pricing.ts';
import { priceTrial } from '../../../src/runner/cost.ts';

const harness = HarnessConfigSchema.parse({ adapter: 'function', model: 'gpt-4o' });
const traceWith = (
  ...calls: { role: string; model?: string; tokens_in: number; tokens_out: number; cost_usd?: number }[]
) => ({
  ...emptyTrace(),
  agent_calls: calls.map((c) => ({ cached_tokens: 0, metadata: {}, ...c })),
});

describe('priceTrial', () => {
  it('keeps a cost the harness reported', () => {
    const out = agentOutput({ output: 'x', usage: { cost_usd: 0.5 } });
    expect(priceTrial(out, emptyTrace(), harness, DEFAULT_PRICES)).toMatchObject({
      costUsd: 0.5,
      source: 'reported',
    });
  });

  it('prices agent calls without a cost from their tokens (gpt-4o: $2.5 in, $10 out per million)', () => {
    // planner: 1,000,000 in + 100,000 out = 2.5 + 1.0 = 3.5; reviewer reported 0.25 -> 3.75
    const trace = traceWith(
      { role: 'planner', tokens_in: 1_000_000, tokens_out: 100_000 },
      { role: 'reviewer', tokens_in: 10, tokens_out: 10, cost_usd: 0.25 },
    );
    const priced = priceTrial(agentOutput({ output: 'x' }), trace, harness, DEFAULT_PRICES);
    expect(priced.source).toBe('price_table');
    expect(priced.costUsd).toBeCloseTo(3.75, 10);
    expect(priced.trace.agent_calls[0]?.cost_usd).toBeCloseTo(3.5, 10);
    expect(priced.trace.agent_calls[0]?.metadata).toMatchObject({
      cost_from: 'price_table',
      prices_as_of: DEFAULT_PRICES.as_of,
    });
  });

  it('uses config prices over the defaults, and says unknown when no price applies', () => {
    const prices = mergePrices(DEFAULT_PRICES, { models: { 'my-llm': { input: 1, output: 2 } } });
    const trace = traceWith({ role: 'dev', model: 'my-llm', tokens_in: 1_000_000, tokens_out: 1_000_000 });
    expect(priceTrial(agentOutput({ output: 'x' }), trace, harness, prices).costUsd).toBe(3);
    const unknown = traceWith({ role: 'dev', model: 'mystery', tokens_in: 5, tokens_out: 5 });
    expect(
      priceTrial(
        agentOutput({ output: 'x' }),
        unknown,
        HarnessConfigSchema.parse({ adapter: 'cli' }),
        DEFAULT_PRICES,
      ),
    ).toMatchObject({
      costUsd: null,
      source: 'unknown',
    });
  });

  it('prices adapter-reported usage with the harness model when there is no trace', () => {
    const out = agentOutput({ output: 'x', usage: { tokens_in: 2_000_000, tokens_out: 0 } });
    expect(priceTrial(out, emptyTrace(), harness, DEFAULT_PRICES)).toMatchObject({
      costUsd: 5,
      source: 'price_table',
    });
  });
});
