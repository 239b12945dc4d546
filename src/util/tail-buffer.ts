/**
 * Keeps the last `limit` bytes written to it (a stderr tail for error messages), however much
 * is written, without growing beyond about twice the limit.
 */
export class TailBuffer {
  readonly #limit: number;
  #chunks: Buffer[] = [];
  #held = 0;
  #total = 0;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`limit must be a positive integer, got ${limit}`);
    this.#limit = limit;
  }

  write(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.#total += bytes.length;
    this.#chunks.push(bytes);
    this.#held += bytes.length;
    // Drop whole chunks from the front while the rest still covers the limit.
    while (this.#chunks.length > 1 && this.#held - (this.#chunks[0]?.length ?? 0) >= this.#limit) {
      this.#held -= this.#chunks.shift()?.length ?? 0;
    }
  }

  /** Bytes written in total, including those no longer kept. */
  get totalBytes(): number {
    return this.#total;
  }

  get truncated(): boolean {
    return this.#total > this.#limit;
  }

  toBuffer(): Buffer {
    const all = Buffer.concat(this.#chunks);
    return all.length > this.#limit ? all.subarray(all.length - this.#limit) : all;
  }

  /** The tail as UTF-8; a character cut at the start shows as U+FFFD. */
  toString(): string {
    return this.toBuffer().toString('utf8');
  }
}
