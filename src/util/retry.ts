export interface RetryOptions {
  /** Retries after the first attempt; 0 means one attempt only. */
  readonly retries: number;
  /** Base of the exponential backoff, in milliseconds. */
  readonly baseMs?: number;
  /** Cap on one delay, in milliseconds. */
  readonly maxMs?: number;
  /** Only errors for which this returns true are retried; the default retries none. */
  readonly isRetryable?: (error: unknown) => boolean;
  readonly signal?: AbortSignal;
  /** Injected for tests; `Math.random` otherwise. */
  readonly random?: () => number;
  /** Called before each wait, e.g. to count retries. */
  readonly onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

/**
 * The delay before retry number `attempt` (0-based): "full jitter", a uniform draw in
 * [0, min(maxMs, baseMs * 2^attempt)), which spreads retries of many trials apart.
 */
export function backoffDelay(
  attempt: number,
  {
    baseMs = 250,
    maxMs = 10_000,
    random = Math.random,
  }: Pick<RetryOptions, 'baseMs' | 'maxMs' | 'random'> = {},
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.floor(Math.min(Math.max(random(), 0), 1) * ceiling);
}

/**
 * Calls `fn` until it succeeds, its error is not retryable, the retries are used up, or `signal`
 * aborts (then it rejects with the signal's reason). `fn` receives the 0-based attempt number.
 */
export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { retries, isRetryable = () => false, signal } = options;
  for (let attempt = 0; ; attempt += 1) {
    signal?.throwIfAborted();
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= retries || !isRetryable(error) || signal?.aborted === true) throw error;
      const delayMs = backoffDelay(attempt, options);
      options.onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, signal);
    }
  }
}

/** Waits `ms` milliseconds; rejects with the signal's reason if it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
