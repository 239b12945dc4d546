import { describe, expect, it } from 'vitest';
import { CommitBatcher } from '../../../src/store/commit-batcher.ts';

/** A batcher over strings ("key:value") that logs every write and can be held or made to fail. */
function harness(
  options: { failBatch?: boolean; failOne?: (item: string) => boolean; maxBatch?: number } = {},
) {
  const log: string[] = [];
  let release: (() => void) | undefined;
  let hold = false;
  const gate = () =>
    hold
      ? new Promise<void>((resolve) => {
          release = resolve;
        })
      : Promise.resolve();
  const batcher = new CommitBatcher<string, string>({
    writeOne: async (item) => {
      await gate();
      if (options.failOne?.(item)) throw new Error(`bad ${item}`);
      log.push(`one ${item}`);
      return `${item} alone`;
    },
    writeBatch: async (items) => {
      await gate();
      if (options.failBatch) throw new Error('batch failed');
      log.push(`batch ${items.join(',')}`);
      return items.map((item, i) => `${item} ${i + 1}/${items.length}`);
    },
    keys: (item) => [item.split(':')[0] ?? item],
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
  });
  return {
    batcher,
    log,
    holdNext: () => {
      hold = true;
    },
    releaseHeld: () => {
      hold = false;
      release?.();
    },
  };
}

describe('CommitBatcher', () => {
  it('writes a lone item at once, alone', async () => {
    const { batcher, log } = harness();
    await batcher.add('a:1');
    expect(log).toEqual(['one a:1']);
  });

  it('gathers the items that arrive during a write into the next batch', async () => {
    const { batcher, log, holdNext, releaseHeld } = harness();
    holdNext();
    const first = batcher.add('a:1');
    const rest = ['b:1', 'c:1', 'd:1'].map((item) => batcher.add(item));
    releaseHeld();
    // Each caller gets its own item's result, alone or from its place in the batch.
    expect(await Promise.all([first, ...rest])).toEqual(['a:1 alone', 'b:1 1/3', 'c:1 2/3', 'd:1 3/3']);
    expect(log).toEqual(['one a:1', 'batch b:1,c:1,d:1']);
  });

  it('never puts two items with one key in a batch, and keeps their order', async () => {
    const { batcher, log, holdNext, releaseHeld } = harness();
    holdNext();
    const all = ['x:0', 'a:1', 'b:1', 'a:2', 'c:1'].map((item) => batcher.add(item));
    releaseHeld();
    await Promise.all(all);
    expect(log).toEqual(['one x:0', 'batch a:1,b:1', 'batch a:2,c:1']);
  });

  it('splits at maxBatch', async () => {
    const { batcher, log, holdNext, releaseHeld } = harness({ maxBatch: 2 });
    holdNext();
    const all = ['x:0', 'a:1', 'b:1', 'c:1'].map((item) => batcher.add(item));
    releaseHeld();
    await Promise.all(all);
    expect(log).toEqual(['one x:0', 'batch a:1,b:1', 'one c:1']);
  });

  it('writes each item of a failed batch alone: each caller gets its own result', async () => {
    const { batcher, log, holdNext, releaseHeld } = harness({
      failBatch: true,
      failOne: (item) => item === 'b:1',
    });
    holdNext();
    const first = batcher.add('x:0');
    const results = ['a:1', 'b:1', 'c:1'].map((item) =>
      batcher.add(item).then(
        (result) => result,
        (error: Error) => error.message,
      ),
    );
    releaseHeld();
    await first;
    expect(await Promise.all(results)).toEqual(['a:1 alone', 'bad b:1', 'c:1 alone']);
    expect(log).toEqual(['one x:0', 'one a:1', 'one c:1']);
  });

  it('is idle once everything queued is written', async () => {
    const { batcher, log, holdNext, releaseHeld } = harness();
    holdNext();
    void batcher.add('a:1');
    void batcher.add('b:1');
    const idle = batcher.idle();
    releaseHeld();
    await idle;
    expect(log).toEqual(['one a:1', 'one b:1']);
    await batcher.idle();
  });

  it('with gather, writes that block still batch: what arrives in one turn goes together', async () => {
    const log: string[] = [];
    // Synchronous writes, as SQLite's: without a gather step the first item would go alone.
    const batcher = new CommitBatcher<string>({
      gather: () => new Promise((resolve) => setImmediate(resolve)),
      writeOne: async (item) => {
        log.push(`one ${item}`);
      },
      writeBatch: async (items) => {
        log.push(`batch ${items.join(',')}`);
        return items.map(() => undefined);
      },
      keys: (item) => [item],
    });
    await Promise.all(['a', 'b', 'c'].map((item) => batcher.add(item)));
    expect(log).toEqual(['batch a,b,c']);
    // A lone write still goes alone, one turn later.
    await batcher.add('d');
    expect(log).toEqual(['batch a,b,c', 'one d']);
    await batcher.idle();
  });

  it('never strands an item added just as a drain ends (callers that await through wrappers)', async () => {
    const log: string[] = [];
    const batcher = new CommitBatcher<string>({
      writeOne: async (item) => {
        log.push(`one ${item}`);
      },
      writeBatch: async (items) => {
        log.push(`batch ${items.join(',')}`);
        return items.map(() => undefined);
      },
      keys: (item) => [item],
    });
    // A store's append awaits the batcher inside its own async function: each caller's next add
    // comes some microtasks after its item resolved. Every spacing must still get written.
    const append = async (item: string, hops: number) => {
      for (let i = 0; i < hops; i++) await Promise.resolve();
      await batcher.add(item);
    };
    for (let hops = 0; hops < 6; hops++) {
      await append(`x${hops}`, hops);
      await append(`y${hops}`, hops);
    }
    expect(log).toHaveLength(12);
    await batcher.idle();
  });
});
