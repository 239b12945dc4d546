import type { CallWindow, RateLimits } from '../core/rate-limits.ts';
import { callWindow } from '../core/rate-limits.ts';
import { sleep } from '../util/retry.ts';

/**
 * Lets a model call through once it keeps its key within the window: at most `requests` calls in
 * any `windowSeconds`. The runner's is in this process; a queue worker's is shared by every
 * worker through PostgreSQL (queue/rate-limits.ts).
 */
export interface RateLimiter {
  /** Resolves when the call may go; rejects when `signal` aborts first. */
  acquire(key: string, limit: CallWindow, signal?: AbortSignal): Promise<void>;
}

/** A sliding-window log per key, in memory: exact for one process. */
export class LocalRateLimiter implements RateLimiter {
  readonly #calls = new Map<string, number[]>();

  async acquire(key: string, limit: CallWindow, signal?: AbortSignal): Promise<void> {
    const windowMs = limit.windowSeconds * 1000;
    for (;;) {
      signal?.throwIfAborted();
      const now = performance.now();
      const calls = (this.#calls.get(key) ?? []).filter((at) => at > now - windowMs);
      this.#calls.set(key, calls);
      if (calls.length < limit.requests) {
        calls.push(now);
        return;
      }
      // The call `requests` back leaves the window first; waiters then look again.
      const oldest = calls[calls.length - limit.requests] ?? now;
      // Rejects with the caller's reason (the harness hung up), not a bare AbortError.
      await sleep(Math.max(1, oldest + windowMs - now), signal);
    }
  }
}

/** The gateway's hook: waits for a slot of the call's provider when the harness config limits it. */
export function rateLimitHook(
  limits: RateLimits,
  limiter: RateLimiter,
): (provider: 'anthropic' | 'openai', signal: AbortSignal) => Promise<void> {
  return async (provider, signal) => {
    const limit = limits[provider];
    if (limit !== undefined) await limiter.acquire(provider, callWindow(limit), signal);
  };
}
