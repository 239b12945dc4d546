import type { AgentOutput } from '../core/agent-output.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { PriceTable } from '../instrument/pricing.ts';
import { type CostStatus, type MergedUsage, mergeUsage } from '../instrument/trial-usage.ts';

export interface CostedOutput {
  /** The output with its calls priced and its usage (tokens, cost) complete. */
  readonly output: AgentOutput;
  readonly status: CostStatus;
  readonly source: MergedUsage['source'];
  /** What the record keeps about the pricing: where the cost came from and which table. */
  readonly metadata: Record<string, unknown>;
}

/**
 * The trial's one cost pass, run before any evaluator: what the adapter, the trackers, the events
 * file and the OpenTelemetry trace reported, merged per call and priced (see `mergeUsage`).
 */
export function costTrial(output: AgentOutput, harness: HarnessConfig, prices: PriceTable): CostedOutput {
  const merged = mergeUsage(
    {
      calls: output.trace?.agent_calls ?? [],
      costs: output.trace?.costs,
      adapterUsage: output.usage,
      defaultModel: harness.model,
    },
    prices,
  );
  const trace = output.trace === undefined ? undefined : { ...output.trace, agent_calls: merged.calls };
  const fromTable = merged.source === 'price_table' || merged.source === 'reported+price_table';
  return {
    output: { ...output, usage: merged.usage, ...(trace === undefined ? {} : { trace }) },
    status: merged.status,
    source: merged.source,
    metadata: {
      ...(merged.source === 'unknown' ? {} : { cost_source: merged.source }),
      ...(merged.status === 'partial' ? { cost_partial: true } : {}),
      ...(fromTable
        ? {
            prices_as_of: prices.as_of,
            ...(prices.source === undefined ? {} : { prices_source: prices.source }),
          }
        : {}),
    },
  };
}
