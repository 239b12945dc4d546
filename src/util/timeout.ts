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
 * comes first. The timer never keeps the process alive after the race is decided.
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

export interface TrialSignal {
  readonly signal: AbortSignal;
  /** Clears the timer and the listener on the parent; call when the trial ends. */
  dispose(): void;
}

/**
 * A signal for one trial: it aborts with a `TimeoutError` reason after `ms` milliseconds, or with
 * the parent's reason when the parent (the run) aborts first.
 */
export function trialSignal(parent: AbortSignal | undefined, ms: number): TrialSignal {
  const controller = new AbortController();
  const onParentAbort = (): void => controller.abort(parent?.reason);
  const timer = setTimeout(() => controller.abort(timeoutReason(ms)), ms);
  if (parent?.aborted === true) {
    clearTimeout(timer);
    controller.abort(parent.reason);
  } else {
    parent?.addEventListener('abort', onParentAbort, { once: true });
  }
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
