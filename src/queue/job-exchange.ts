import type { TakenJob, TrialQueue } from './trial-queue.ts';

/** A job whose trial's record is committed, to be completed. */
export interface DoneJob {
  readonly jobId: string;
  readonly experimentId: string;
}

export interface JobExchangeOptions {
  readonly queue: Pick<TrialQueue, 'exchange'>;
  /** The worker's tags (`worker --tags`). */
  readonly tags: readonly string[];
  /** How many jobs the worker would take now: free slots and prefetch, less what it holds (0 when stopping). */
  readonly wanted: () => number;
  /** A slot is free and no taken job waits for it: a take goes out at once. */
  readonly starving: () => boolean;
  /** Jobs taken for the worker. */
  readonly onTaken: (jobs: readonly TakenJob[]) => void;
  /** An exchange that asked for jobs failed (its completions reject on their own). */
  readonly onTakeError: (error: unknown) => void;
  /** How long a worker waits before asking a queue that had fewer jobs than it asked for again (default 500 ms). */
  readonly pollMs?: number;
}

interface Gathered {
  readonly job: DoneJob;
  readonly resolve: (drained: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * A worker's traffic with the queue, one exchange (statement) out at a time: the completions
 * gathered since the last one, plus a take of what the worker wants, in one round trip. An
 * exchange goes when completions wait (they arrive in groups: a worker commits its records in
 * groups), or when a slot is free with nothing to start; a take rides along whenever the worker
 * wants jobs. A queue that had fewer jobs than asked for is asked again after `pollMs`, unless
 * completions go anyway. Each `complete` resolves true for one job of each experiment its exchange
 * left with no job waiting or running: its caller is the one to see whether it is finished.
 */
export class JobExchange {
  readonly #options: JobExchangeOptions;
  readonly #pollMs: number;
  #gathered: Gathered[] = [];
  #out = false;
  /** Set in this turn of the event loop: completions of one turn go together. */
  #kicked = false;
  /** Until when a worker with nothing to do does not ask the queue again (it had too few jobs). */
  #dryUntil = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #idle: (() => void)[] = [];

  constructor(options: JobExchangeOptions) {
    this.#options = options;
    this.#pollMs = options.pollMs ?? 500;
  }

  /** Call only once the job's record is committed: a kill before completing only repeats the trial. */
  complete(job: DoneJob): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.#gathered.push({ job, resolve, reject });
      this.poke();
    });
  }

  /** What the worker wants changed (a slot freed, a trial was handed over): look again this turn. */
  poke(): void {
    if (this.#kicked) return;
    this.#kicked = true;
    setImmediate(() => {
      this.#kicked = false;
      this.#consider();
    });
  }

  /** No more takes (the worker stops); completions still go. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Resolves once no completion waits or is out. */
  async idle(): Promise<void> {
    while (this.#out || this.#kicked || this.#gathered.length > 0)
      await new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  #consider(): void {
    if (this.#out) return;
    const now = performance.now();
    const wanted = this.#closed ? 0 : Math.max(0, Math.trunc(this.#options.wanted()));
    const completing = this.#gathered.length > 0;
    const dry = now < this.#dryUntil;
    const take = wanted > 0 && (completing || (!dry && this.#options.starving()));
    if (completing || take) {
      this.#send(take ? wanted : 0);
      return;
    }
    // Nothing to run and the queue had too little: ask again once the pause is over.
    if (wanted > 0 && dry && this.#timer === undefined && !this.#closed)
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#consider();
      }, this.#dryUntil - now);
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  #send(wanted: number): void {
    const batch = this.#gathered;
    this.#gathered = [];
    this.#out = true;
    this.#options.queue
      .exchange(
        batch.map(({ job }) => job.jobId),
        this.#options.tags,
        wanted,
      )
      .then(
        ({ taken, drained }) => {
          if (wanted > 0) this.#dryUntil = taken.length < wanted ? performance.now() + this.#pollMs : 0;
          const left = new Set(drained);
          for (const { job, resolve } of batch) resolve(left.delete(job.experimentId));
          if (taken.length > 0) this.#options.onTaken(taken);
        },
        (error: unknown) => {
          // The jobs stay taken and expire: each trial runs again, a counted retry (as a kill would).
          for (const { reject } of batch) reject(error);
          if (wanted > 0) {
            this.#dryUntil = performance.now() + this.#pollMs;
            this.#options.onTakeError(error);
          }
        },
      )
      // What the worker's callbacks throw is reported as a failed take, never left unhandled.
      .catch((error: unknown) => this.#options.onTakeError(error))
      .finally(() => {
        this.#out = false;
        this.#consider();
      });
  }
}
