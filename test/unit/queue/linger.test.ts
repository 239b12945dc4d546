import { afterEach, describe, expect, it, vi } from 'vitest';
import { Linger } from '../../../src/queue/linger.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('Linger: items gathered for a while, handed over together', () => {
  it('hands over everything added within `ms` of the first item in one call', () => {
    vi.useFakeTimers();
    const batches: number[][] = [];
    const linger = new Linger<number>(20, (items) => batches.push(items));
    linger.add(1);
    vi.advanceTimersByTime(10);
    linger.add(2);
    linger.add(3);
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(10);
    expect(batches).toEqual([[1, 2, 3]]);
    // The next item starts a new wait.
    linger.add(4);
    vi.advanceTimersByTime(19);
    expect(batches).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('flush hands over at once, and nothing when nothing is gathered', () => {
    vi.useFakeTimers();
    const batches: string[][] = [];
    const linger = new Linger<string>(20, (items) => batches.push(items));
    linger.flush();
    expect(batches).toEqual([]);
    linger.add('a');
    linger.flush();
    expect(batches).toEqual([['a']]);
    vi.advanceTimersByTime(100);
    expect(batches).toEqual([['a']]);
  });
});
