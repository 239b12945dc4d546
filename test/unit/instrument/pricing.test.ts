import { describe, expect, it } from 'vitest';
import { costOf, DEFAULT_PRICES, findPrice, mergePrices } from '../../../src/instrument/pricing.ts';

describe('pricing', () => {
  it('computes cost from tokens: (fresh*in + cached*cachedPrice + out*outPrice) / 1e6', () => {
    // gpt-4o: $2.5 in, $10 out, $1.25 cached per million. 1000 in (200 cached), 500 out:
    // (800*2.5 + 200*1.25 + 500*10) / 1e6 = (2000 + 250 + 5000) / 1e6 = 0.00725
    expect(
      costOf(DEFAULT_PRICES, {
        model: 'gpt-4o',
        provider: 'openai',
        tokens_in: 1000,
        tokens_out: 500,
        cached_tokens: 200,
      }),
    ).toBeCloseTo(0.00725, 12);
  });

  it('matches dated snapshots by the longest known prefix', () => {
    expect(findPrice(DEFAULT_PRICES, 'claude-sonnet-4-20250514')).toEqual(
      DEFAULT_PRICES.models['anthropic/claude-sonnet-4'],
    );
    expect(findPrice(DEFAULT_PRICES, 'gpt-4o-mini-2024-07-18')).toEqual(
      DEFAULT_PRICES.models['openai/gpt-4o-mini'],
    );
  });

  it('returns undefined for unknown models and calls without a model', () => {
    expect(
      costOf(DEFAULT_PRICES, { model: 'my-local-llama', tokens_in: 10, tokens_out: 10 }),
    ).toBeUndefined();
    expect(costOf(DEFAULT_PRICES, { tokens_in: 10, tokens_out: 10 })).toBeUndefined();
  });

  it('lets config override and extend the table', () => {
    const table = mergePrices(DEFAULT_PRICES, {
      as_of: '2026-11-01',
      models: { 'local/llama': { input: 0, output: 0 } },
    });
    expect(table.as_of).toBe('2026-11-01');
    expect(costOf(table, { model: 'llama', provider: 'local', tokens_in: 100, tokens_out: 100 })).toBe(0);
    expect(findPrice(table, 'gpt-4o')).toBeDefined();
  });

  it('never counts more cached tokens than input tokens', () => {
    // 100 in, 500 "cached" -> cached clamps to 100: 100 * 1.25 / 1e6
    expect(
      costOf(DEFAULT_PRICES, { model: 'gpt-4o', tokens_in: 100, tokens_out: 0, cached_tokens: 500 }),
    ).toBeCloseTo(0.000125, 12);
  });
});
