import { z } from 'zod';

/** One provider's limit: so many model calls per minute, or per second (give one of the two). */
export const RateLimitSchema = z
  .object({
    requests_per_minute: z.number().int().positive().optional(),
    requests_per_second: z.number().int().positive().optional(),
  })
  .strict()
  .refine(
    (limit) => (limit.requests_per_minute === undefined) !== (limit.requests_per_second === undefined),
    {
      message: 'give requests_per_minute or requests_per_second (one of the two)',
    },
  );
export type RateLimit = z.infer<typeof RateLimitSchema>;

/**
 * `rate_limits:` in a harness config: the model calls of each provider the gateway lets through,
 * counted over every trial of the run — and, with `run --queue`, over every worker at once.
 */
export const RateLimitsSchema = z.partialRecord(z.enum(['anthropic', 'openai']), RateLimitSchema);
export type RateLimits = z.infer<typeof RateLimitsSchema>;

/** At most `requests` calls in any `windowSeconds`. */
export interface CallWindow {
  readonly requests: number;
  readonly windowSeconds: number;
}

export function callWindow(limit: RateLimit): CallWindow {
  return limit.requests_per_second !== undefined
    ? { requests: limit.requests_per_second, windowSeconds: 1 }
    : { requests: limit.requests_per_minute ?? 1, windowSeconds: 60 };
}
