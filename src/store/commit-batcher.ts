/**
 * Group commit on the client: writes that arrive while one batch is being committed go together
 * in the next batch, one statement and one transaction for all of them. A lone write goes at
 * once (no timer, no added latency); at `-j 16` the round trip, the commit and the syscalls are
 * shared by up to 16 trials. Each `add` still resolves only once its own item is committed, with
 * that item's own result (`R`: e.g. whether a record was the first of its trial).
 */

interface Pending<T, R> {
  readonly item: T;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

export interface CommitBatcherOptions<T, R> {
  /** Commits the items in one transaction, all or none; the result of each item, in order. */
  readonly writeBatch: (items: readonly T[]) => Promise<readonly R[]>;
  /** Commits one item; used alone, and to find which item of a failed batch failed. */
  readonly writeOne: (item: T) => Promise<R>;
  /**
   * The unique keys an item writes. Two items sharing a key never go in one batch (one statement
   * cannot touch a row twice); the later one waits for the next batch, so order is kept.
   */
  readonly keys: (item: T) => readonly string[];
  readonly maxBatch?: number;
  /**
   * Awaited before each batch is taken. A store whose writes block (SQLite) has no commit out
   * while other trials finish, so nothing would ever wait to join a batch: yielding one turn of
   * the event loop (`setImmediate`) lets the writes of that turn arrive and go together.
   */
  readonly gather?: () => Promise<void>;
}

export class CommitBatcher<T, R = void> {
  readonly #options: CommitBatcherOptions<T, R>;
  readonly #queue: Pending<T, R>[] = [];
  #running: Promise<void> | undefined;

  constructor(options: CommitBatcherOptions<T, R>) {
    this.#options = options;
  }

  /** Resolves with the item's result when `item` is committed; rejects with that item's own error. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#kick();
    });
  }

  /**
   * Starts draining unless a drain is running. An item can arrive after a drain saw an empty
   * queue but before that drain's end was noticed: the drain that ends starts the next one, or
   * that item would wait forever.
   */
  #kick(): void {
    if (this.#running !== undefined) return;
    this.#running = this.#drain().finally(() => {
      this.#running = undefined;
      if (this.#queue.length > 0) this.#kick();
    });
  }

  /** Resolves when nothing is queued or being written. */
  async idle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      if (this.#options.gather !== undefined) await this.#options.gather();
      const batch = this.#takeBatch();
      if (batch.length === 1) {
        await settle(batch[0]!, () => this.#options.writeOne(batch[0]!.item));
        continue;
      }
      let results: readonly R[];
      try {
        results = await this.#options.writeBatch(batch.map((p) => p.item));
      } catch {
        // Nothing of the batch was committed: write each alone, so each caller gets its own result.
        for (const p of batch) await settle(p, () => this.#options.writeOne(p.item));
        continue;
      }
      for (const [i, p] of batch.entries()) p.resolve(results[i] as R);
    }
  }

  #takeBatch(): Pending<T, R>[] {
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

async function settle<T, R>(pending: Pending<T, R>, write: () => Promise<R>): Promise<void> {
  try {
    pending.resolve(await write());
  } catch (error) {
    pending.reject(error);
  }
}
