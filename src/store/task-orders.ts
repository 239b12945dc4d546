/** Task id -> its index in the suite: the order records are stored and read in. */
export type TaskOrder = ReadonlyMap<string, number>;

/**
 * Each experiment's task order, read once per store. Promises, so the trials that finish together
 * before the first read (a queue worker's first batch) share that one read. A failed read (no such
 * experiment yet, the server away) is not kept: the next write reads again.
 */
export class TaskOrders {
  readonly #known = new Map<string, Promise<TaskOrder>>();

  of(experimentId: string, read: () => Promise<TaskOrder>): Promise<TaskOrder> {
    const known = this.#known.get(experimentId);
    if (known !== undefined) return known;
    const reading = read();
    this.#known.set(experimentId, reading);
    reading.catch(() => {
      if (this.#known.get(experimentId) === reading) this.#known.delete(experimentId);
    });
    return reading;
  }

  set(experimentId: string, order: TaskOrder): void {
    this.#known.set(experimentId, Promise.resolve(order));
  }

  delete(experimentId: string): void {
    this.#known.delete(experimentId);
  }
}
