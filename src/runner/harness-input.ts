import type { AgentV1 } from '../adapters/types.ts';
import { type HarnessConfig, HarnessConfigSchema } from '../core/harness-config.ts';
import { type Harness, harnessAgent, isHarness } from '../instrument/harness.ts';

/**
 * What a library caller may pass as `harness`: a config that names an adapter (`{ adapter: 'http',
 * ... }`), or the harness itself in code — an in-process `Harness` (`run(task, ctx)`) or an
 * adapter agent (`AgentV1`), the same objects `Evaluator` takes.
 */
export type HarnessInput = HarnessConfig | Harness | AgentV1;

/** How a harness given in code is described in the record (its config has no file to say it). */
export interface InProcessHarness {
  readonly name?: string | undefined;
  readonly version?: string | undefined;
  readonly model?: string | undefined;
  readonly trustTier?: string | undefined;
  readonly agents?: readonly string[] | undefined;
}

function isAgent(value: HarnessInput): value is AgentV1 {
  return 'specificationVersion' in value && typeof (value as { run?: unknown }).run === 'function';
}

/**
 * A harness given in code becomes an `in-process` config plus the agent that drives it; a config
 * stays as it is (its agent is created from the adapter later). An explicit `agent` wins.
 */
export function resolveHarness(
  harness: HarnessInput,
  agent: AgentV1 | undefined,
  described: InProcessHarness = {},
): { readonly harness: HarnessConfig; readonly agent: AgentV1 | undefined } {
  if (!isAgent(harness) && !isHarness(harness)) return { harness, agent };
  const codeName = typeof harness.name === 'string' && harness.name !== '' ? harness.name : undefined;
  const config = HarnessConfigSchema.parse({
    name: described.name ?? codeName ?? 'harness',
    version: described.version ?? '0.0.0',
    adapter: 'in-process',
    agents: [...(described.agents ?? [])],
    ...(described.model === undefined ? {} : { model: described.model }),
    ...(described.trustTier === undefined ? {} : { trust_tier: described.trustTier }),
  });
  return { harness: config, agent: agent ?? (isAgent(harness) ? harness : harnessAgent(harness)) };
}
