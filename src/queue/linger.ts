/**
 * Gathers items for `ms` after the first one, then hands them over together: a worker's finished
 * trials, so that the records of ~20 ms of trials commit in one statement (and their jobs then
 * complete in one exchange) where committing at once took a statement for every one or two. The
 * wait is off the trials' path: a slot starts its next trial as soon as its record is handed over.
 */
export class Linger<T> {
  readonly #ms: number;
  readonly #flush: (items: T[]) => void;
  #items: T[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(ms: number, flush: (items: T[]) => void) {
    this.#ms = Math.max(0, ms);
    this.#flush = flush;
  }

  add(item: T): void {
    this.#items.push(item);
    this.#timer ??= setTimeout(() => this.flush(), this.#ms);
  }

  /** Hands over what is gathered now (the worker stops). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const items = this.#items;
    this.#items = [];
    if (items.length > 0) this.#flush(items);
  }
}
