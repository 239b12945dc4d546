import { z } from 'zod';

export const TrustTierSchema = z.string().min(1);

/**
 * What is under test: a named, versioned harness and the adapter that drives it.
 * `options` are the adapter's own options, checked against the adapter's schema at load time.
 */
export const HarnessConfigSchema = z.object({
  schema_version: z.literal(1).default(1),
  name: z.string().min(1).default('harness'),
  version: z.string().default('0.0.0'),
  adapter: z.string().min(1),
  options: z.record(z.string(), z.unknown()).default({}),
  model: z.string().optional(),
  agents: z.array(z.string()).default([]),
  trust_tier: TrustTierSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type HarnessConfig = z.infer<typeof HarnessConfigSchema>;
export type HarnessConfigDraft = z.input<typeof HarnessConfigSchema>;
