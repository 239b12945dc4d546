/**
 * What a worker built for each experiment it takes jobs of (the suite, its plugins, the agent, the
 * compiled checks, the trial setup with its gateway), opened once and shared by every job of the
 * experiment, as the local runner builds them once per run. Bounded: a worker that lives through
 * many experiments keeps only the `capacity` most recently used ones open, and closes the others
 * once no trial of theirs is running. A failed open is not kept (the next job tries again: the
 * checkout may have been updated), and `drop` forgets an experiment whose state changed (a
 * cancelled one is reopened, with its stored plan read again, if it is resumed).
 */
export class ExperimentCache<T extends { close(): Promise<void> }> {
  readonly #open: (experimentId: string) => Promise<T>;
  readonly #capacity: number;
  /** Most recently used last (a Map keeps insertion order). */
  readonly #entries = new Map<string, Entry<T>>();
  /** Closes still going on (evicted entries): `closeAll` waits for them too. */
  readonly #closing = new Set<Promise<void>>();

  constructor(open: (experimentId: string) => Promise<T>, capacity = 8) {
    this.#open = open;
    this.#capacity = Math.max(1, Math.trunc(capacity));
  }

  /** Runs `use` with the experiment's opened value; the entry is not closed while `use` runs. */
  async use<R>(experimentId: string, use: (value: T) => Promise<R>): Promise<R> {
    let entry = this.#entries.get(experimentId);
    if (entry === undefined) {
      entry = { value: this.#open(experimentId), users: 0, dropped: false };
      const opened = entry;
      // A refusal or a missing experiment is not cached: a later job opens it again.
      opened.value.catch(() => this.#forget(experimentId, opened));
    } else this.#entries.delete(experimentId);
    this.#entries.set(experimentId, entry);
    entry.users += 1;
    try {
      return await use(await entry.value);
    } finally {
      entry.users -= 1;
      if (entry.dropped) this.#closeIfUnused(entry);
      this.#evict();
    }
  }

  /**
   * Forgets the experiment (finished, changed, cancelled): closed once its running trials end;
   * reopened on its next job. `stop` gets the value first (once opened), to end those trials.
   */
  drop(experimentId: string, stop?: (value: T) => void): void {
    const entry = this.#entries.get(experimentId);
    if (entry === undefined) return;
    this.#forget(experimentId, entry);
    if (stop !== undefined) entry.value.then(stop, () => undefined);
    this.#closeIfUnused(entry);
  }

  /** How many experiments are open or opening. */
  get size(): number {
    return this.#entries.size;
  }

  /** Closes every experiment (the worker stops; no trial runs any more). */
  async closeAll(): Promise<void> {
    for (const [id, entry] of this.#entries) {
      this.#forget(id, entry);
      this.#closeIfUnused(entry);
    }
    while (this.#closing.size > 0) await Promise.all(this.#closing);
  }

  #forget(experimentId: string, entry: Entry<T>): void {
    entry.dropped = true;
    if (this.#entries.get(experimentId) === entry) this.#entries.delete(experimentId);
  }

  /** The least recently used experiments past the capacity, among those with no trial running. */
  #evict(): void {
    for (const [id, entry] of this.#entries) {
      if (this.#entries.size <= this.#capacity) return;
      if (entry.users > 0) continue;
      this.#forget(id, entry);
      this.#closeIfUnused(entry);
    }
  }

  #closeIfUnused(entry: Entry<T>): void {
    if (entry.users > 0 || entry.closed === true) return;
    entry.closed = true;
    const closing = entry.value
      .then((value) => value.close())
      .catch(() => undefined)
      .finally(() => this.#closing.delete(closing));
    this.#closing.add(closing);
  }
}

interface Entry<T> {
  readonly value: Promise<T>;
  users: number;
  /** No longer served: closed as soon as no trial uses it. */
  dropped: boolean;
  closed?: boolean;
}
