import { describe, expect, it, vi } from 'vitest';
import { TaskOrders } from '../../../src/store/task-orders.ts';

describe('TaskOrders', () => {
  it('shares one read among the writes of an experiment that come at once', async () => {
    const orders = new TaskOrders();
    const read = vi.fn(async () => new Map([['t0', 0]]));
    const got = await Promise.all([1, 2, 3].map(() => orders.of('e1', read)));
    await orders.of('e1', read);
    expect(read).toHaveBeenCalledTimes(1);
    expect(got.every((order) => order.get('t0') === 0)).toBe(true);
  });

  it('does not keep a failed read, nor an order that was deleted', async () => {
    const orders = new TaskOrders();
    const read = vi
      .fn<() => Promise<ReadonlyMap<string, number>>>()
      .mockRejectedValueOnce(new Error('no experiment e1'))
      .mockResolvedValue(new Map([['t0', 0]]));
    await expect(orders.of('e1', read)).rejects.toThrow('no experiment e1');
    await expect(orders.of('e1', read)).resolves.toEqual(new Map([['t0', 0]]));
    orders.delete('e1');
    await orders.of('e1', read);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('serves an order set when the experiment was created, without reading', async () => {
    const orders = new TaskOrders();
    orders.set('e1', new Map([['t1', 1]]));
    const read = vi.fn(async () => new Map<string, number>());
    expect((await orders.of('e1', read)).get('t1')).toBe(1);
    expect(read).not.toHaveBeenCalled();
  });
});
