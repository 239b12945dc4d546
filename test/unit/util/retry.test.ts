import { describe, expect, it } from 'vitest';
import { backoffDelay, retry } from '../../../src/util/retry.ts';

class Transient extends Error {}
const isTransient = (e: unknown): boolean => e instanceof Transient;

describe('retry', () => {
  it('retries retryable errors until success, passing the attempt number', async () => {
    const attempts: number[] = [];
    const value = await retry(
      async (attempt) => {
        attempts.push(attempt);
        if (attempt < 2) throw new Transient('429');
        return 'done';
      },
      { retries: 3, baseMs: 1, isRetryable: isTransient },
    );
    expect(value).toBe('done');
    expect(attempts).toEqual([0, 1, 2]);
  });

  it('never retries an error that is not retryable', async () => {
    let calls = 0;
    const run = retry(
      async () => {
        calls += 1;
        throw new Error('bad request');
      },
      { retries: 5, baseMs: 1, isRetryable: isTransient },
    );
    await expect(run).rejects.toThrow('bad request');
    expect(calls).toBe(1);
  });

  it('gives up after the retries with the last error', async () => {
    let calls = 0;
    const run = retry(
      async () => {
        calls += 1;
        throw new Transient(`try ${calls}`);
      },
      { retries: 2, baseMs: 1, isRetryable: isTransient },
    );
    await expect(run).rejects.toThrow('try 3');
  });

  it('stops waiting and rejects with the reason when the signal aborts', async () => {
    const controller = new AbortController();
    let calls = 0;
    const run = retry(
      async () => {
        calls += 1;
        throw new Transient('503');
      },
      {
        retries: 5,
        baseMs: 60_000,
        random: () => 1,
        isRetryable: isTransient,
        signal: controller.signal,
        onRetry: () => controller.abort(new Error('interrupted')),
      },
    );
    await expect(run).rejects.toThrow('interrupted');
    expect(calls).toBe(1);
  });
});

describe('backoffDelay', () => {
  it('draws in [0, min(max, base * 2^attempt)) with full jitter', () => {
    expect(backoffDelay(0, { baseMs: 100, maxMs: 1000, random: () => 0 })).toBe(0);
    expect(backoffDelay(0, { baseMs: 100, maxMs: 1000, random: () => 0.5 })).toBe(50);
    expect(backoffDelay(3, { baseMs: 100, maxMs: 1000, random: () => 0.999 })).toBe(799);
    expect(backoffDelay(10, { baseMs: 100, maxMs: 1000, random: () => 0.999 })).toBe(999);
    expect(backoffDelay(10, { baseMs: 100, maxMs: 1000, random: () => 7 })).toBe(1000);
  });
});
