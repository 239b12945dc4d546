import { z } from 'zod';
import { GatewaySettingsSchema } from './gateway-config.ts';
import { RateLimitsSchema } from './rate-limits.ts';
import { SandboxConfigSchema } from './sandbox-config.ts';

/** USD per million tokens of one model. */
export const ModelPriceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  /** Cached input tokens (cache reads); the input price when a provider gives no discount. */
  cached: z.number().nonnegative().optional(),
  /** Input tokens written to the cache; the input price when a provider charges nothing extra. */
  cache_write: z.number().nonnegative().optional(),
});
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** Prices that override or extend the built-in table, keyed `provider/model` or by model name. */
export const PricingOverrideSchema = z.object({
  as_of: z.string().optional(),
  /** Where the prices come from (a URL, a contract), stored with every cost priced from them. */
  source: z.string().optional(),
  models: z.record(z.string(), ModelPriceSchema).default({}),
});
export type PricingOverride = z.infer<typeof PricingOverrideSchema>;

export const TrustTierSchema = z.string().min(1);

/**
 * What is under test: a named, versioned harness and the adapter that drives it.
 * `options` are the adapter's own options, checked against the adapter's schema at load time.
 */
export const HarnessConfigSchema = z
  .object({
    schema_version: z.literal(1).default(1),
    name: z.string().min(1).default('harness'),
    version: z.string().default('0.0.0'),
    adapter: z.string().min(1),
    options: z.record(z.string(), z.unknown()).default({}),
    model: z.string().optional(),
    agents: z.array(z.string()).default([]),
    trust_tier: TrustTierSchema.optional(),
    /** Prices used to compute cost from tokens when the harness reports none. */
    pricing: PricingOverrideSchema.optional(),
    /** Run each trial's harness and checks in a sandbox (overrides the suite's `sandbox:`). */
    sandbox: SandboxConfigSchema.optional(),
    /** Route the harness's model calls through the recording gateway (see docs/evaluating-coding-agents.md). */
    gateway: GatewaySettingsSchema.optional(),
    /**
     * Model calls per provider the gateway lets through (`anthropic: { requests_per_minute: 50 }`),
     * over all trials of a run and, with `run --queue`, over all workers. Needs `gateway:`.
     */
    rate_limits: RateLimitsSchema.optional(),
    metadata: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((config, ctx) => {
    if (config.rate_limits !== undefined && config.gateway === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['rate_limits'],
        message:
          'rate_limits counts the model calls the recording gateway sees: add gateway: to the harness config',
      });
  });
export type HarnessConfig = z.infer<typeof HarnessConfigSchema>;
export type HarnessConfigDraft = z.input<typeof HarnessConfigSchema>;
