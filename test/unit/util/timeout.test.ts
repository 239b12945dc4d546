import { describe, expect, it } from 'vitest';
import { isTimeoutReason, trialSignal, withTimeout } from '../../../src/util/timeout.ts';

describe('withTimeout', () => {
  it('passes through a value or an error that comes first', async () => {
    await expect(withTimeout(Promise.resolve(7), 1000)).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error('own')), 1000)).rejects.toThrow('own');
  });

  it('rejects with a TimeoutError when the promise is too slow', async () => {
    const never = new Promise<never>(() => {});
    const error: unknown = await withTimeout(never, 5).catch((e: unknown) => e);
    expect(isTimeoutReason(error)).toBe(true);
  });
});

describe('trialSignal', () => {
  it('fires at the timeout with a TimeoutError reason', async () => {
    const { signal, dispose } = trialSignal(undefined, 5);
    await new Promise((resolve) => signal.addEventListener('abort', resolve));
    expect(isTimeoutReason(signal.reason)).toBe(true);
    dispose();
  });

  it('follows the parent with the parent reason', () => {
    const parent = new AbortController();
    const { signal, dispose } = trialSignal(parent.signal, 60_000);
    expect(signal.aborted).toBe(false);
    parent.abort(new Error('interrupted'));
    expect(signal.aborted).toBe(true);
    expect(isTimeoutReason(signal.reason)).toBe(false);
    expect(signal.reason).toEqual(new Error('interrupted'));
    dispose();
  });

  it('is aborted at once when the parent already is, and dispose stops the timer', async () => {
    const parent = new AbortController();
    parent.abort('stop');
    expect(trialSignal(parent.signal, 60_000).signal.reason).toBe('stop');
    const { signal, dispose } = trialSignal(undefined, 5);
    dispose();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(signal.aborted).toBe(false);
  });
});
