/**
 * Group commit on the client: writes that arrive while one batch is being committed go together
 * in the next batch, one statement and one transaction for all of them. A lone write goes at
 * once (no timer, no added latency); at `-j 16` the round trip, the commit and the syscalls are
 * shared by up to 16 trials. Each `add` still resolves only once its own item is committed.
 */

interface Pending<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export interface CommitBatcherOptions<T> {
  /** Commits the items in one transaction: all or none. */
  readonly writeBatch: (items: readonly T[]) => Promise<void>;
  /** Commits one item; used alone, and to find which item of a failed batch failed. */
  readonly writeOne: (item: T) => Promise<void>;
  /**
   * The unique keys an item writes. Two items sharing a key never go in one batch (one statement
   * cannot touch a row twice); the later one waits for the next batch, so order is kept.
   */
  readonly keys: (item: T) => readonly string[];
  readonly maxBatch?: number;
}

export class CommitBatcher<T> {
  readonly #options: CommitBatcherOptions<T>;
  readonly #queue: Pending<T>[] = [];
  #running: Promise<void> | undefined;

  constructor(options: CommitBatcherOptions<T>) {
    this.#options = options;
  }

  /** Resolves when `item` is committed; rejects with that item's own error. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#running ??= this.#drain().finally(() => {
        this.#running = undefined;
      });
    });
  }

  /** Resolves when nothing is queued or being written. */
  async idle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#takeBatch();
      if (batch.length === 1) {
        await settle(batch, () => this.#options.writeOne(batch[0]!.item));
        continue;
      }
      try {
        await this.#options.writeBatch(batch.map((p) => p.item));
        for (const p of batch) p.resolve();
      } catch {
        // Nothing of the batch was committed: write each alone, so each caller gets its own result.
        for (const p of batch) await settle([p], () => this.#options.writeOne(p.item));
      }
    }
  }

  #takeBatch(): Pending<T>[] {
    const max = this.#options.maxBatch ?? 500;
    const seen = new Set<string>();
    let count = 0;
    for (const pending of this.#queue) {
      const keys = this.#options.keys(pending.item);
      if (count === max || keys.some((key) => seen.has(key))) break;
      for (const key of keys) seen.add(key);
      count += 1;
    }
    return this.#queue.splice(0, Math.max(1, count));
  }
}

async function settle<T>(batch: readonly Pending<T>[], write: () => Promise<void>): Promise<void> {
  try {
    await write();
    for (const p of batch) p.resolve();
  } catch (error) {
    for (const p of batch) p.reject(error);
  }
}
