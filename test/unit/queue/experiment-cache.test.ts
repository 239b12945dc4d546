import { describe, expect, it, vi } from 'vitest';
import { ExperimentCache } from '../../../src/queue/experiment-cache.ts';

/** An opened experiment that says whether it was closed. */
function opener() {
  const closed: string[] = [];
  const open = vi.fn(async (id: string) => ({
    id,
    close: async () => {
      closed.push(id);
    },
  }));
  return { open, closed };
}

describe('ExperimentCache', () => {
  it('opens an experiment once for all of its jobs, also jobs that start together', async () => {
    const { open } = opener();
    const cache = new ExperimentCache(open);
    const ids = await Promise.all([1, 2, 3].map(() => cache.use('e1', async (e) => e.id)));
    await cache.use('e1', async () => undefined);
    expect(ids).toEqual(['e1', 'e1', 'e1']);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failed open: the next job opens the experiment again', async () => {
    const open = vi
      .fn<(id: string) => Promise<{ close(): Promise<void> }>>()
      .mockRejectedValueOnce(new Error('suite hash differs'))
      .mockResolvedValue({ close: async () => undefined });
    const cache = new ExperimentCache(open);
    await expect(cache.use('e1', async () => 'ran')).rejects.toThrow('suite hash differs');
    expect(cache.size).toBe(0);
    await expect(cache.use('e1', async () => 'ran')).resolves.toBe('ran');
    expect(open).toHaveBeenCalledTimes(2);
  });

  it('a dropped experiment (finished, changed) is closed and opened again on its next job', async () => {
    const { open, closed } = opener();
    const cache = new ExperimentCache(open);
    await cache.use('e1', async () => undefined);
    cache.drop('e1');
    await cache.closeAll();
    expect(closed).toEqual(['e1']);
    await cache.use('e1', async () => undefined);
    expect(open).toHaveBeenCalledTimes(2);
  });

  it('a dropped experiment gets `stop` before it closes, also when it was still opening (a cancel)', async () => {
    let opened: (value: { close(): Promise<void> }) => void = () => {};
    const events: string[] = [];
    const cache = new ExperimentCache(
      () =>
        new Promise<{ close(): Promise<void> }>((resolve) => {
          opened = resolve;
        }),
    );
    const job = cache.use('e1', async () => void events.push('job ran'));
    cache.drop('e1', () => events.push('stopped'));
    opened({ close: async () => void events.push('closed') });
    await job;
    await cache.closeAll();
    expect(events).toEqual(['job ran', 'stopped', 'closed']);
    expect(cache.size).toBe(0);
  });

  it('does not close an experiment while one of its trials runs', async () => {
    const { open, closed } = opener();
    const cache = new ExperimentCache(open);
    let release = () => {};
    const running = cache.use('e1', () => new Promise<void>((resolve) => (release = resolve)));
    await vi.waitFor(() => expect(open).toHaveBeenCalled());
    cache.drop('e1');
    await Promise.resolve();
    expect(closed).toEqual([]);
    release();
    await running;
    await cache.closeAll();
    expect(closed).toEqual(['e1']);
  });

  it('keeps at most `capacity` experiments open, closing the least recently used', async () => {
    const { open, closed } = opener();
    const cache = new ExperimentCache(open, 2);
    for (const id of ['e1', 'e2', 'e1', 'e3']) await cache.use(id, async () => undefined);
    expect(cache.size).toBe(2);
    await cache.closeAll();
    // e2 was the least recently used when e3 came; e1 and e3 closed with the cache.
    expect(closed).toEqual(['e2', 'e1', 'e3']);
    expect(open).toHaveBeenCalledTimes(3);
  });

  it('closes every experiment when the worker stops', async () => {
    const { open, closed } = opener();
    const cache = new ExperimentCache(open);
    await cache.use('e1', async () => undefined);
    await cache.use('e2', async () => undefined);
    await cache.closeAll();
    expect(closed.sort()).toEqual(['e1', 'e2']);
    expect(cache.size).toBe(0);
  });
});
