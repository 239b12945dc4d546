import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { InOrder, StoredFeed } from '../../../src/runner/in-order.ts';
import { makeRecord } from '../../helpers/experiments.ts';

const record = (task: string) => makeRecord({ task_id: task, epoch: 0, run_id: `run-${task}` });

/** The kept records a store would give, with a log of each one taken from it. */
async function* storeGives(
  tasks: readonly string[],
  taken: string[],
  failAfter?: number,
): AsyncGenerator<RunRecord> {
  for (const [i, task] of tasks.entries()) {
    if (i === failAfter) throw new Error('the store went away');
    taken.push(task);
    yield record(task);
  }
}

describe('InOrder with kept trials from the store (StoredFeed)', () => {
  it('reads a kept record only when the fold reaches it, and folds everything in plan order', async () => {
    const tasks = ['k0', 'r1', 'k2', 'k3', 'r4', 'k5'];
    const folded: string[] = [];
    const order = new InOrder(tasks, 1, (r) => folded.push(r.task_id));
    for (const task of tasks) task.startsWith('k') ? order.expectStored(task, 0) : order.expect(task, 0);
    const taken: string[] = [];
    const feed = new StoredFeed(order, storeGives(['k0', 'k2', 'k3', 'k5'], taken));
    feed.pump();
    await turn();
    // r1 has not finished: k2 and everything after it stay in the store.
    expect(taken).toEqual(['k0']);
    expect(folded).toEqual(['k0']);
    order.put(record('r4'));
    feed.pump();
    await turn();
    expect(taken).toEqual(['k0']);
    order.put(record('r1'));
    feed.pump();
    await turn();
    expect(taken).toEqual(['k0', 'k2', 'k3', 'k5']);
    await feed.drain();
    order.finish();
    expect(folded).toEqual(tasks);
  });

  it('goes on without the kept records the store no longer has', async () => {
    const folded: string[] = [];
    const order = new InOrder(['k0', 'k1', 'r2'], 1, (r) => folded.push(r.task_id));
    order.expectStored('k0', 0);
    order.expectStored('k1', 0);
    order.expect('r2', 0);
    const feed = new StoredFeed(order, storeGives(['k1'], []));
    feed.pump();
    order.put(record('r2'));
    await feed.drain();
    order.finish();
    expect(folded).toEqual(['k1', 'r2']);
  });

  it("gives the store's failure when the run drains the feed", async () => {
    const order = new InOrder(['k0', 'k1'], 1, () => {});
    order.expectStored('k0', 0);
    order.expectStored('k1', 0);
    const feed = new StoredFeed(order, storeGives(['k0', 'k1'], [], 1));
    feed.pump();
    await turn();
    await expect(feed.drain()).rejects.toThrow('the store went away');
  });
});
