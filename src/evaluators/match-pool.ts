import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { MATCH_WORKER_SOURCE } from './match-worker-source.ts';

/**
 * A pool of worker threads for the evaluator steps that apply a suite's pattern to an agent's
 * data (see match-worker-source.ts). A match that backtracks for minutes on the main thread would
 * block every timer, every other trial and even SIGTERM; on a worker it is stopped at its time
 * limit (`worker.terminate()` interrupts a running match). The static check in
 * `util/regex-safety.ts` refuses exponential patterns up front; this is the backstop for the
 * polynomial ones it lets through (`a*a*a*b`, `(.*a){9}b`).
 *
 * The pool grows to `maxWorkers` (the runner sets it to the run's concurrency), so slow matches of
 * different trials run side by side instead of queueing behind one thread. Idle workers do not
 * keep the process alive.
 */
export type MatchJob =
  | { readonly kind: 'regex'; readonly source: string; readonly flags: string; readonly text: string }
  | { readonly kind: 'jsonpath'; readonly path: string; readonly data: unknown }
  | {
      readonly kind: 'json_schema';
      /** Identifies the compiled schema in the worker's cache. */
      readonly key: string;
      readonly schema: Record<string, unknown>;
      readonly draft2020: boolean;
      readonly data: unknown;
    };

export type MatchOutcome =
  | { readonly kind: 'done'; readonly value: unknown }
  | { readonly kind: 'timeout'; readonly limitMs: number }
  | { readonly kind: 'error'; readonly message: string };

/** The most workers a run may use whatever its concurrency: each costs ~10 MB while it lives. */
const MAX_POOL = 32;
/** How long a worker may take to start and load a matcher's module before its job is given up (not the match's limit). */
const STARTUP_LIMIT_MS = 60_000;

function resolveModules(): { modules: Record<string, string>; missing: Record<string, string> } {
  // Not named `require`: in the CommonJS bundle `import.meta.url` becomes code that calls it.
  const resolver = createRequire(import.meta.url);
  const modules: Record<string, string> = {};
  const missing: Record<string, string> = {};
  for (const [name, specifier] of [
    ['jsonpath', 'jsonpath-rfc9535'],
    ['ajv', 'ajv'],
    ['ajv2020', 'ajv/dist/2020.js'],
  ] as const) {
    try {
      modules[name] = resolver.resolve(specifier);
    } catch (error) {
      missing[name] = `cannot load ${specifier} in the match worker: ${String(error)}`;
    }
  }
  return { modules, missing };
}

let workerData: ReturnType<typeof resolveModules> | undefined;

class MatchPool {
  #maxWorkers = 4;
  #live = 0;
  readonly #idle: Worker[] = [];
  readonly #waiting: (() => void)[] = [];

  set maxWorkers(n: number) {
    this.#maxWorkers = Math.max(1, Math.min(MAX_POOL, Math.trunc(n)));
    while (this.#live < this.#maxWorkers && this.#waiting.length > 0) this.#waiting.shift()?.();
  }

  get maxWorkers(): number {
    return this.#maxWorkers;
  }

  /** Runs `job` on a free worker; `ms` is how long it ran (waiting for a worker not counted). */
  async run(
    job: MatchJob,
    limitMs: number,
    signal?: AbortSignal,
  ): Promise<{ readonly outcome: MatchOutcome; readonly ms: number }> {
    const worker = await this.#acquire();
    let started = performance.now();
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: MatchOutcome, reusable: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(startup);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        worker.off('error', onError);
        if (reusable) this.#release(worker);
        else this.#discard(worker);
        resolve({ outcome, ms: performance.now() - started });
      };
      const onMessage = (message: unknown) => {
        if (typeof message === 'object' && message !== null && 'started' in message) {
          // The match itself begins now: a worker's start-up and module loading (slow on a loaded
          // machine) never count against the pattern's time limit.
          clearTimeout(startup);
          started = performance.now();
          timer = setTimeout(() => finish({ kind: 'timeout', limitMs }, false), Math.max(0, limitMs));
          return;
        }
        if (typeof message === 'object' && message !== null && 'ok' in message) {
          const reply = message as { ok: boolean; value?: unknown; message?: unknown };
          finish(
            reply.ok
              ? { kind: 'done', value: reply.value }
              : { kind: 'error', message: String(reply.message) },
            true,
          );
        } else finish({ kind: 'error', message: 'unexpected reply from the match worker' }, false);
      };
      const onExit = () => finish({ kind: 'error', message: 'the match worker stopped' }, false);
      const onError = (error: Error) => finish({ kind: 'error', message: error.message }, false);
      const onAbort = () => finish({ kind: 'error', message: 'stopped: the run was interrupted' }, false);
      let timer: NodeJS.Timeout | undefined;
      const startup = setTimeout(
        () =>
          finish(
            { kind: 'error', message: `the match worker did not start in ${STARTUP_LIMIT_MS / 1000} s` },
            false,
          ),
        STARTUP_LIMIT_MS,
      );
      worker.on('message', onMessage);
      worker.on('exit', onExit);
      worker.on('error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted === true) {
        onAbort();
        return;
      }
      worker.ref();
      try {
        worker.postMessage(job);
      } catch (error) {
        // Data that cannot be cloned (a function in a plugin's output) is the job's error.
        finish(
          { kind: 'error', message: `cannot hand the data to the match worker: ${String(error)}` },
          true,
        );
      }
    });
  }

  async #acquire(): Promise<Worker> {
    for (;;) {
      const idle = this.#idle.pop();
      if (idle !== undefined) return idle;
      if (this.#live < this.#maxWorkers) {
        workerData ??= resolveModules();
        const worker = new Worker(MATCH_WORKER_SOURCE, { eval: true, workerData });
        this.#live++;
        worker.unref();
        // However it ends (terminated at a time limit, or crashed while idle), its place frees up.
        worker.once('exit', () => {
          this.#live--;
          const at = this.#idle.indexOf(worker);
          if (at !== -1) this.#idle.splice(at, 1);
          this.#waiting.shift()?.();
        });
        return worker;
      }
      await new Promise<void>((wake) => this.#waiting.push(wake));
    }
  }

  #release(worker: Worker): void {
    worker.unref();
    if (this.#live > this.#maxWorkers) {
      this.#discard(worker);
      return;
    }
    this.#idle.push(worker);
    this.#waiting.shift()?.();
  }

  #discard(worker: Worker): void {
    void worker.terminate();
  }
}

/** The one pool of the process: evaluators of every run share it. */
export const matchPool = new MatchPool();

/** Lets as many slow matches run at once as the run has trials in flight. */
export function sizeMatchPool(concurrency: number): void {
  matchPool.maxWorkers = concurrency;
}
