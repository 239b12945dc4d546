/** The reason a timed-out signal carries: a `DOMException` named `TimeoutError`, as `AbortSignal.timeout` uses. */
export function timeoutReason(ms: number): DOMException {
  return new DOMException(`timed out after ${formatMs(ms)}`, 'TimeoutError');
}

/** Whether an abort reason (or a thrown error) is a timeout. */
export function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof Error || reason instanceof DOMException ? reason.name === 'TimeoutError' : false;
}

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
