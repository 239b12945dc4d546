import type { ServerResponse } from 'node:http';

/** The part of an AbortSignal the forwarding reads: an AbortSignal is one. */
export interface HangUpSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * Fires when the harness hangs up before its answer is complete. Every call has one, so it is a
 * flag and a listener list: the AbortController (a measurable cost per call) is made only for the
 * code that needs a real AbortSignal (a rate-limit wait, a scripted delay). Listeners run once.
 */
export class HangUp implements HangUpSignal {
  aborted = false;
  private listeners: (() => void)[] = [];
  private controller: AbortController | undefined;

  constructor(res: ServerResponse) {
    res.on('close', () => {
      if (!res.writableFinished) this.abort();
    });
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at !== -1) this.listeners.splice(at, 1);
  }

  /** A real AbortSignal that aborts with this one. */
  asAbortSignal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }

  private abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.controller?.abort();
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}
