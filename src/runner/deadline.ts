import { timeoutReason } from '../util/timeout.ts';

export interface TrialDeadline {
  /** Fires at the timeout (a `TimeoutError`) or when the run is stopped (its reason). */
  readonly signal: AbortSignal;
  /** Clears the timer; call it when the trial ends. */
  dispose(): void;
}

/**
 * The signals of a run's trials. Each trial gets one controller and one timer, cleared when the
 * trial ends; stopping the run aborts the live ones from a set. This is cheaper than
 * `AbortSignal.any([run, AbortSignal.timeout(ms)])` per trial, whose timer stays armed until it
 * fires (10,000 short trials with a 60 s timeout left 10,000 live timers and signals behind), and
 * than a listener per trial on the run's signal (EventTarget listeners are slow to add and remove).
 */
export class TrialDeadlines {
  readonly #live = new Set<AbortController>();
  readonly #stop = new AbortController();
  #stopped: { reason: unknown } | undefined;

  /** Aborts every live trial and any started later with `reason`. */
  abortAll(reason: unknown): void {
    if (this.#stopped !== undefined) return;
    this.#stopped = { reason };
    for (const controller of this.#live) controller.abort(reason);
    this.#live.clear();
    this.#stop.abort(reason);
  }

  /** Fires when the run is stopped for good (`abortAll`), not at any trial's timeout. */
  get stopSignal(): AbortSignal {
    return this.#stop.signal;
  }

  get aborted(): boolean {
    return this.#stopped !== undefined;
  }

  start(ms: number): TrialDeadline {
    const controller = new AbortController();
    if (this.#stopped !== undefined) {
      controller.abort(this.#stopped.reason);
      return { signal: controller.signal, dispose: () => {} };
    }
    this.#live.add(controller);
    const timer = setTimeout(() => controller.abort(timeoutReason(ms)), ms);
    return {
      signal: controller.signal,
      dispose: () => {
        clearTimeout(timer);
        this.#live.delete(controller);
      },
    };
  }
}
