/**
 * How many jobs a worker takes ahead of its free slots: as many as its slots free up within
 * `horizonMs` at the rate its trials have been finishing over the last `windowMs`, at most `max`.
 *
 * With it, a slot that frees starts its next trial at once instead of waiting a round trip for a
 * take, and the takes ride along with the completions (exchange-jobs.ts) instead of going one per
 * freed slot. It is zero when trials are long (16 slots of 1 s trials free 0.64 in 40 ms), so a worker never sits on jobs that other workers' free slots could run now: a job taken
 * ahead waits about `horizonMs`, counts as running for `max_in_flight`, and its expiry runs.
 */
export class PrefetchTarget {
  readonly #max: number;
  readonly #horizonMs: number;
  readonly #windowMs: number;
  /** When trials finished, oldest first (only those within the window are kept). */
  #finishes: number[] = [];
  #first = 0;

  constructor(options: { max: number; horizonMs?: number; windowMs?: number }) {
    this.#max = Math.max(0, Math.trunc(options.max));
    this.#horizonMs = options.horizonMs ?? 40;
    this.#windowMs = options.windowMs ?? 1000;
  }

  /** A trial finished here (its slot is free). */
  finished(now = performance.now()): void {
    this.#finishes.push(now);
  }

  /** Jobs to hold beyond the free slots now. */
  target(now = performance.now()): number {
    this.#forgetBefore(now - this.#windowMs);
    const count = this.#finishes.length - this.#first;
    if (count < 2) return 0;
    // Over the time the window has seen finishes (a worker that just started has seen less than
    // the window), but never less than a tenth of it: two trials finishing together are no rate.
    const span = Math.max(now - (this.#finishes[this.#first] ?? now), this.#windowMs / 10);
    return Math.min(this.#max, Math.floor((count / span) * this.#horizonMs));
  }

  #forgetBefore(oldest: number): void {
    while (this.#first < this.#finishes.length && (this.#finishes[this.#first] ?? 0) < oldest)
      this.#first += 1;
    // Compacted now and then, not on every call: the array stays within twice the window's finishes.
    if (this.#first > 1024 && this.#first * 2 > this.#finishes.length) {
      this.#finishes = this.#finishes.slice(this.#first);
      this.#first = 0;
    }
  }
}
