import { describe, expect, it } from 'vitest';
import { PrefetchTarget } from '../../../src/queue/prefetch.ts';

/** `count` finishes, one every `everyMs`, the last at `end`. */
function finishes(target: PrefetchTarget, count: number, everyMs: number, end: number): void {
  for (let i = count - 1; i >= 0; i--) target.finished(end - i * everyMs);
}

describe('PrefetchTarget: jobs taken ahead follow the rate trials finish at', () => {
  it('takes none ahead before trials have finished here', () => {
    const target = new PrefetchTarget({ max: 16 });
    expect(target.target(0)).toBe(0);
    target.finished(10);
    expect(target.target(10)).toBe(0);
  });

  it('holds as many as free up within the horizon: 16 slots of 50 ms trials free 12.8 in 40 ms', () => {
    const target = new PrefetchTarget({ max: 16, horizonMs: 40 });
    // 320 trials a second: one every 3.125 ms, for a second.
    finishes(target, 320, 3.125, 1000);
    expect(target.target(1000)).toBe(12);
  });

  it('takes none ahead when trials are long: 16 slots of 1 s trials', () => {
    const target = new PrefetchTarget({ max: 16, horizonMs: 40 });
    finishes(target, 16, 62.5, 1000);
    expect(target.target(1000)).toBe(0);
  });

  it('never holds more than `max`', () => {
    const target = new PrefetchTarget({ max: 4, horizonMs: 40 });
    finishes(target, 1000, 1, 1000);
    expect(target.target(1000)).toBe(4);
    expect(new PrefetchTarget({ max: 0 }).target(0)).toBe(0);
  });

  it('forgets finishes older than the window: after a pause it takes none ahead', () => {
    const target = new PrefetchTarget({ max: 16, horizonMs: 40, windowMs: 1000 });
    finishes(target, 320, 3.125, 1000);
    expect(target.target(1000)).toBeGreaterThan(0);
    expect(target.target(2001)).toBe(0);
    // And it sees a new rate from the finishes after the pause alone.
    finishes(target, 50, 10, 3000);
    expect(target.target(3000)).toBe(4);
  });

  it('does not read two trials finishing together as a huge rate', () => {
    const target = new PrefetchTarget({ max: 16, horizonMs: 40, windowMs: 1000 });
    target.finished(500);
    target.finished(500);
    // Two in (at least) a tenth of the window: 2 / 100 ms x 40 ms, less than one.
    expect(target.target(500)).toBe(0);
    target.finished(500);
    target.finished(500);
    target.finished(500);
    expect(target.target(500)).toBe(2);
  });

  it('keeps its memory bounded over a long run', () => {
    const target = new PrefetchTarget({ max: 16, horizonMs: 40, windowMs: 1000 });
    for (let t = 0; t < 100_000; t++) {
      target.finished(t);
      if (t % 100 === 0) target.target(t);
    }
    expect(target.target(100_000)).toBe(16);
  });
});
