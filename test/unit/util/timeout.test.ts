import { describe, expect, it } from 'vitest';
import { isTimeoutReason, timeoutReason } from '../../../src/util/timeout.ts';

describe('timeout reasons', () => {
  it('the reason a deadline carries is a TimeoutError naming the limit', () => {
    const reason = timeoutReason(1500);
    expect(reason.name).toBe('TimeoutError');
    expect(reason.message).toMatch(/^timed out after /);
    expect(isTimeoutReason(reason)).toBe(true);
  });

  it('AbortSignal.timeout reasons are timeouts; other aborts and values are not', async () => {
    const signal = AbortSignal.timeout(1);
    await new Promise((resolve) => signal.addEventListener('abort', resolve));
    expect(isTimeoutReason(signal.reason)).toBe(true);
    const controller = new AbortController();
    controller.abort();
    expect(isTimeoutReason(controller.signal.reason)).toBe(false);
    expect(isTimeoutReason(new Error('interrupted'))).toBe(false);
    expect(isTimeoutReason('TimeoutError')).toBe(false);
    expect(isTimeoutReason(undefined)).toBe(false);
  });
});
