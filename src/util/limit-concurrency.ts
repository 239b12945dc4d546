/** Runs a task under the limit; resolves or rejects with the task's own result. */
export type Limiter = <T>(task: () => T | PromiseLike<T>) => Promise<T>;

/**
 * A concurrency limiter: at most `concurrency` tasks run at once, and waiting tasks start in the
 * order they were submitted (FIFO). A rejected task rejects only its own promise — the limiter
 * keeps no promise of its own that could go unhandled.
 *
 * @example const limit = limitConcurrency(4); await Promise.all(ids.map((id) => limit(() => run(id))));
 */
export function limitConcurrency(concurrency: number): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  const waiting: Array<() => void> = [];
  let running = 0;

  const release = (): void => {
    running -= 1;
    const next = waiting.shift();
    if (next !== undefined) next();
  };

  return <T>(task: () => T | PromiseLike<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const start = (): void => {
        running += 1;
        // `Promise.resolve().then(task)` turns a synchronous throw into a rejection.
        Promise.resolve().then(task).then(resolve, reject).finally(release);
      };
      if (running < concurrency) start();
      else waiting.push(start);
    });
}
