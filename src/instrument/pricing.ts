import { z } from 'zod';
import { type ModelPrice, ModelPriceSchema, type PricingOverride } from '../core/harness-config.ts';

export { type ModelPrice, ModelPriceSchema };

export const PriceTableSchema = z.object({
  as_of: z.string(),
  /** Where the prices were read (the providers' pricing pages, a contract). */
  source: z.string().optional(),
  /** Keys are `provider/model` or a bare model name. */
  models: z.record(z.string(), ModelPriceSchema),
});
export type PriceTable = z.infer<typeof PriceTableSchema>;

/**
 * List prices in USD per million tokens as published by the providers on the `as_of` date, from
 * `source`. Anthropic bills cache writes (5-minute TTL) at 1.25x input and reads at 0.1x; OpenAI
 * and Google bill no cache write (the input price). Prices change: override or extend them with
 * `pricing:` in a harness config rather than trusting these for billing.
 */
export const DEFAULT_PRICES: PriceTable = {
  as_of: '2025-08-01',
  source:
    'https://www.anthropic.com/pricing, https://openai.com/api/pricing, https://ai.google.dev/gemini-api/docs/pricing',
  models: {
    'anthropic/claude-opus-4': { input: 15, output: 75, cached: 1.5, cache_write: 18.75 },
    'anthropic/claude-opus-4-1': { input: 15, output: 75, cached: 1.5, cache_write: 18.75 },
    'anthropic/claude-sonnet-4': { input: 3, output: 15, cached: 0.3, cache_write: 3.75 },
    'anthropic/claude-3-7-sonnet': { input: 3, output: 15, cached: 0.3, cache_write: 3.75 },
    'anthropic/claude-3-5-haiku': { input: 0.8, output: 4, cached: 0.08, cache_write: 1 },
    'openai/gpt-4o': { input: 2.5, output: 10, cached: 1.25 },
    'openai/gpt-4o-mini': { input: 0.15, output: 0.6, cached: 0.075 },
    'openai/gpt-4.1': { input: 2, output: 8, cached: 0.5 },
    'openai/gpt-4.1-mini': { input: 0.4, output: 1.6, cached: 0.1 },
    'openai/gpt-4.1-nano': { input: 0.1, output: 0.4, cached: 0.025 },
    'openai/o3': { input: 2, output: 8, cached: 0.5 },
    'openai/o4-mini': { input: 1.1, output: 4.4, cached: 0.275 },
    'google/gemini-2.5-pro': { input: 1.25, output: 10, cached: 0.31 },
    'google/gemini-2.5-flash': { input: 0.3, output: 2.5, cached: 0.075 },
  },
};

/**
 * Merges a harness's `pricing:` over the defaults: its models replace or extend the table's, and
 * its `as_of` and `source` (when given) describe the result.
 */
export function mergePrices(
  base: PriceTable,
  override: PricingOverride | Partial<PriceTable> | undefined,
): PriceTable {
  if (override === undefined) return base;
  const ownModels = Object.keys(override.models ?? {}).length > 0;
  const source =
    override.source ??
    (ownModels && base.source !== undefined ? `${base.source}, and the harness's pricing:` : base.source);
  return {
    as_of: override.as_of ?? base.as_of,
    ...(source === undefined ? {} : { source }),
    models: { ...base.models, ...override.models },
  };
}

/**
 * The price of a model: an exact `provider/model` key, then the bare model name, then the longest
 * known model name the given one starts with (dated snapshots like `claude-sonnet-4-20250514`).
 */
export function findPrice(table: PriceTable, model: string, provider?: string): ModelPrice | undefined {
  const keys = provider === undefined ? [model] : [`${provider}/${model}`, model];
  for (const key of keys) {
    const exact = table.models[key];
    if (exact !== undefined) return exact;
  }
  let best: { length: number; price: ModelPrice } | undefined;
  for (const [key, price] of Object.entries(table.models)) {
    const bare = key.includes('/') ? key.slice(key.indexOf('/') + 1) : key;
    const name = model.includes('/') ? model.slice(model.indexOf('/') + 1) : model;
    if (name.startsWith(bare) && (best === undefined || bare.length > best.length))
      best = { length: bare.length, price };
  }
  return best?.price;
}

/** Cost in USD of one call; undefined when the model has no known price. */
export function costOf(
  table: PriceTable,
  call: {
    model?: string | undefined;
    provider?: string | undefined;
    tokens_in: number;
    tokens_out: number;
    cached_tokens?: number | undefined;
    /** Part of `tokens_in`, priced at the cache-write price (the input price when the table has none). */
    cache_write_tokens?: number | undefined;
  },
): number | undefined {
  if (call.model === undefined) return undefined;
  const price = findPrice(table, call.model, call.provider);
  if (price === undefined) return undefined;
  // Reads and writes are parts of tokens_in, billed at their own prices.
  const cached = Math.min(call.cached_tokens ?? 0, call.tokens_in);
  const written = Math.min(call.cache_write_tokens ?? 0, call.tokens_in - cached);
  const fresh = call.tokens_in - cached - written;
  return (
    (fresh * price.input +
      cached * (price.cached ?? price.input) +
      written * (price.cache_write ?? price.input) +
      call.tokens_out * price.output) /
    1_000_000
  );
}
