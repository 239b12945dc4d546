import { describe, expect, it } from 'vitest';
import { callWindow, RateLimitSchema } from '../../../src/core/rate-limits.ts';
import { LocalRateLimiter, rateLimitHook } from '../../../src/runner/rate-limiter.ts';

describe('LocalRateLimiter', () => {
  it('lets `requests` calls through at once and holds the next until the first leaves the window', async () => {
    const limiter = new LocalRateLimiter();
    const limit = { requests: 3, windowSeconds: 0.2 };
    const t0 = performance.now();
    for (let i = 0; i < 3; i++) await limiter.acquire('anthropic', limit);
    let fourth = false;
    const waiting = limiter.acquire('anthropic', limit).then(() => {
      fourth = true;
      return performance.now() - t0;
    });
    await Promise.resolve();
    expect(fourth).toBe(false);
    // A lower bound only: it cannot be let through before the first call is 200 ms old.
    expect(await waiting).toBeGreaterThanOrEqual(199);
  });

  it('counts each key apart', async () => {
    const limiter = new LocalRateLimiter();
    const limit = { requests: 1, windowSeconds: 60 };
    await limiter.acquire('anthropic', limit);
    await expect(limiter.acquire('openai', limit)).resolves.toBeUndefined();
  });

  it('a waiting call ends with the signal', async () => {
    const limiter = new LocalRateLimiter();
    const limit = { requests: 1, windowSeconds: 60 };
    await limiter.acquire('anthropic', limit);
    const stop = new AbortController();
    const waiting = limiter.acquire('anthropic', limit, stop.signal);
    stop.abort(new Error('the harness hung up'));
    await expect(waiting).rejects.toThrow('the harness hung up');
  });
});

describe('rate_limits', () => {
  it('takes requests per minute or per second, one of the two', () => {
    expect(callWindow(RateLimitSchema.parse({ requests_per_minute: 50 }))).toEqual({
      requests: 50,
      windowSeconds: 60,
    });
    expect(callWindow(RateLimitSchema.parse({ requests_per_second: 4 }))).toEqual({
      requests: 4,
      windowSeconds: 1,
    });
    expect(RateLimitSchema.safeParse({}).success).toBe(false);
    expect(RateLimitSchema.safeParse({ requests_per_minute: 5, requests_per_second: 1 }).success).toBe(false);
    expect(RateLimitSchema.safeParse({ requests_per_minute: 0 }).success).toBe(false);
  });

  it('the gateway hook waits only for a provider that has a limit', async () => {
    const seen: string[] = [];
    const hook = rateLimitHook(
      { anthropic: { requests_per_minute: 10 } },
      { acquire: async (key) => void seen.push(key) },
    );
    await hook('openai', new AbortController().signal);
    await hook('anthropic', new AbortController().signal);
    expect(seen).toEqual(['anthropic']);
  });
});
