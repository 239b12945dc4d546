import type { TrialQueue } from './trial-queue.ts';

/** A job whose trial's record is committed, to be completed. */
export interface DoneJob {
  readonly jobId: string;
  readonly experimentId: string;
}

interface Gathered {
  readonly job: DoneJob;
  readonly resolve: (drained: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * A worker's job completions, in batches: the completions that arrive within `lingerMs` of the
 * first go together in one statement. A completion is off the trial's path (the slot takes its
 * next job at once), and each statement costs the worker a round trip's CPU, the kernel's loopback
 * send included: at 200 trials/s, 20 ms gathers ~4 jobs where batching only what arrived while a
 * batch was out gathered ~1.5. Each `complete` resolves true for one job of each experiment the
 * batch left with no job waiting or running: its caller is the one to see whether the experiment
 * is finished.
 */
export class JobCompleter {
  readonly #queue: TrialQueue;
  readonly #lingerMs: number;
  #gathered: Gathered[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** One batch out at a time (as the store's group commit): what gathers meanwhile goes next. */
  #sending: Promise<void> | undefined;
  /** The linger ended while a batch was out: send when it returns. */
  #due = false;

  constructor(queue: TrialQueue, lingerMs = 20) {
    this.#queue = queue;
    this.#lingerMs = Math.max(0, lingerMs);
  }

  /** Call only once the job's record is committed: a kill before completing only repeats the trial. */
  complete(job: DoneJob): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.#gathered.push({ job, resolve, reject });
      if (this.#timer === undefined && !this.#due)
        this.#timer = setTimeout(() => this.#lingered(), this.#lingerMs);
    });
  }

  /** Sends what is gathered now; resolves when every completion asked for has been tried. */
  async idle(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#due = true;
    }
    if (this.#sending === undefined && this.#due) this.#send();
    while (this.#sending !== undefined) await this.#sending;
  }

  #lingered(): void {
    this.#timer = undefined;
    this.#due = true;
    if (this.#sending === undefined) this.#send();
  }

  #send(): void {
    this.#due = false;
    const batch = this.#gathered;
    this.#gathered = [];
    if (batch.length === 0) return;
    this.#sending = this.#queue
      .complete(batch.map(({ job }) => job.jobId))
      .then(
        (experiments) => {
          const drained = new Set(experiments);
          for (const { job, resolve } of batch) resolve(drained.delete(job.experimentId));
        },
        // The jobs stay taken and expire: each trial runs again, a counted retry (as a kill would).
        (error: unknown) => {
          for (const { reject } of batch) reject(error);
        },
      )
      .finally(() => {
        this.#sending = undefined;
        if (this.#due) this.#send();
      });
  }
}
