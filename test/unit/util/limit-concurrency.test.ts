import { describe, expect, it } from 'vitest';
import { limitConcurrency } from '../../../src/util/limit-concurrency.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('limitConcurrency', () => {
  it('never runs more than n tasks at once and starts them in FIFO order', async () => {
    const limit = limitConcurrency(3);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 10 }, () => deferred());
    const results = gates.map((gate, index) =>
      limit(async () => {
        started.push(index);
        running += 1;
        peak = Math.max(peak, running);
        await gate.promise;
        running -= 1;
        return index * 2;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    // Release out of order: waiting tasks still start in submission order.
    for (const index of [2, 0, 1, 5, 3, 4, 9, 8, 7, 6]) {
      gates[index]?.resolve();
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all(results)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(peak).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('rejects only the failing task and frees its slot (sync throws included)', async () => {
    const limit = limitConcurrency(1);
    const failing = limit(() => {
      throw new Error('boom');
    });
    const rejecting = limit(() => Promise.reject(new Error('later')));
    const next = limit(() => 'ok');
    await expect(failing).rejects.toThrow('boom');
    await expect(rejecting).rejects.toThrow('later');
    await expect(next).resolves.toBe('ok');
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => limitConcurrency(0)).toThrow(RangeError);
    expect(() => limitConcurrency(1.5)).toThrow(RangeError);
  });
});
