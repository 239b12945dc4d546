import type { AgentOutput, Trace } from '../core/agent-output.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import { costOf, type PriceTable } from '../instrument/pricing.ts';

export interface PricedTrial {
  readonly trace: Trace;
  /** null when nothing was reported and no price was known. */
  readonly costUsd: number | null;
  readonly source: 'reported' | 'price_table' | 'unknown';
}

/**
 * The cost of a trial: what the harness reported; otherwise computed from tokens with the price
 * table (agent calls without a cost get one, marked `cost_from: price_table`); otherwise unknown.
 */
export function priceTrial(
  output: AgentOutput,
  trace: Trace,
  harness: HarnessConfig,
  prices: PriceTable,
): PricedTrial {
  if (output.usage.cost_usd !== null) return { trace, costUsd: output.usage.cost_usd, source: 'reported' };
  let known = false;
  let computed = false;
  let total = 0;
  const calls = trace.agent_calls.map((call) => {
    if (call.cost_usd !== undefined) {
      known = true;
      total += call.cost_usd;
      return call;
    }
    const cost = costOf(prices, { ...call, model: call.model ?? harness.model });
    if (cost === undefined) return call;
    known = true;
    computed = true;
    total += cost;
    return {
      ...call,
      cost_usd: cost,
      metadata: { ...call.metadata, cost_from: 'price_table', prices_as_of: prices.as_of },
    };
  });
  if (!known && trace.agent_calls.length === 0 && harness.model !== undefined) {
    const cost = costOf(prices, {
      model: harness.model,
      tokens_in: output.usage.tokens_in,
      tokens_out: output.usage.tokens_out,
      cached_tokens: output.usage.cached_tokens,
    });
    if (cost !== undefined && output.usage.tokens_in + output.usage.tokens_out > 0)
      return { trace, costUsd: cost, source: 'price_table' };
  }
  if (!known) return { trace, costUsd: null, source: 'unknown' };
  return {
    trace: { ...trace, agent_calls: calls },
    costUsd: total,
    source: computed ? 'price_table' : 'reported',
  };
}
