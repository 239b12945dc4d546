import { z } from 'zod';

/**
 * Where the recording model gateway sends a harness's model calls: a provider's API
 * (`anthropic`, `openai`: the key is read from the environment, never stored), another base URL,
 * a scripted model (`script`) or a replayed cassette (`cassette`).
 */
export const GatewayUpstreamSchema = z.union([
  z.enum(['anthropic', 'openai', 'script', 'cassette']),
  z.string().url(),
]);
export type GatewayUpstream = z.infer<typeof GatewayUpstreamSchema>;

/**
 * `gateway:` in a harness config: every model call of the harness goes through a local recording
 * server (one route per trial) and is recorded into the trial's trace.
 */
export const GatewaySettingsSchema = z
  .object({
    upstream: GatewayUpstreamSchema,
    /**
     * The model script (YAML) answering when `upstream: script`, relative to the harness file;
     * `{task}` in it gives each task its own script (`scripts/{task}.yaml`).
     */
    script: z.string().min(1).optional(),
    /** The cassette replayed when `upstream: cassette` (JSON lines written by `record_cassette`). */
    cassette: z.string().min(1).optional(),
    /** Append every forwarded call to this cassette, for deterministic replays later. */
    record_cassette: z.string().min(1).optional(),
    /** The environment variable holding the upstream's key; the provider's usual one by default. */
    api_key_env: z.string().min(1).optional(),
    /** Store request and response bodies (secrets redacted) in each call's record. */
    record_bodies: z.boolean().default(false),
  })
  .strict()
  .superRefine((settings, ctx) => {
    if (settings.upstream === 'script' && settings.script === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['script'],
        message: '`upstream: script` needs `script: <file>`',
      });
    if (settings.upstream === 'cassette' && settings.cassette === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['cassette'],
        message: '`upstream: cassette` needs `cassette: <file>`',
      });
  });
export type GatewaySettings = z.infer<typeof GatewaySettingsSchema>;
