/** The reason a timed-out signal carries: a `DOMException` named `TimeoutError`, as `AbortSignal.timeout` uses. */
export function timeoutReason(ms: number): DOMException {
  return new DOMException(`timed out after ${formatMs(ms)}`, 'TimeoutError');
}

/** Whether an abort reason (or a thrown error) is a timeout. */
export function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof Error || reason instanceof DOMException ? reason.name === 'TimeoutError' : false;
}

/**
 * Settles with `promise`, or rejects with a `TimeoutError` after `ms` milliseconds, whichever
 * comes first (the acp adapter's wait for `initialize`). The timer never keeps the process alive
 * after the race is decided.
 */
export function withTimeout<T>(promise: PromiseLike<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timeoutReason(ms)), ms);
    Promise.resolve(promise).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
