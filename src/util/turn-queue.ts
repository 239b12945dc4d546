/**
 * Runs the jobs queued during one turn of the event loop together, right after it (one
 * `setImmediate`): the work that must follow an event, but need not delay what else that turn
 * does, waits at most until the turn ends. Jobs start in the order they were queued, one after
 * another in the same tick, so a store sees the records of one turn arrive together.
 */
export class TurnQueue {
  #jobs: (() => void)[] = [];

  /** Resolves or rejects as `job` does, once it has run after this turn. */
  run<T>(job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.#jobs.length === 0) setImmediate(() => this.#flush());
      this.#jobs.push(() => {
        try {
          job().then(resolve, reject);
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  #flush(): void {
    const jobs = this.#jobs;
    this.#jobs = [];
    for (const job of jobs) job();
  }
}
