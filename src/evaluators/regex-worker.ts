import { Worker } from 'node:worker_threads';

/**
 * Runs regular expressions on a worker thread so that a pattern that backtracks badly on a large
 * output is stopped at a time limit (`worker.terminate()` interrupts a running match) instead of
 * hanging the run. The static check in `util/regex-safety.ts` refuses exponential patterns
 * up front; this is the backstop for polynomial ones (`.*x`, `a*a*b`) that it lets through.
 * One worker serves every evaluator, one match at a time; it does not keep the process alive.
 */
export type RegexOutcome =
  | {
      readonly kind: 'match';
      readonly value: string;
      readonly index: number;
      readonly groups: Record<string, string>;
    }
  | { readonly kind: 'no_match' }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'error'; readonly message: string };

export interface RegexRequest {
  readonly source: string;
  readonly flags: string;
  readonly text: string;
}

// Plain JS run by the worker (eval: true), so it works the same from source, tests and the bundle.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const cache = new Map();
parentPort.on('message', ({ source, flags, text }) => {
  try {
    const key = flags + '/' + source;
    let re = cache.get(key);
    if (re === undefined) { re = new RegExp(source, flags); if (cache.size > 256) cache.clear(); cache.set(key, re); }
    const m = re.exec(text);
    if (m === null) { parentPort.postMessage({ kind: 'no_match' }); return; }
    const groups = {};
    for (const [k, v] of Object.entries(m.groups ?? {})) if (typeof v === 'string') groups[k] = v;
    m.forEach((v, i) => { if (i > 0 && typeof v === 'string') groups[String(i)] = v; });
    parentPort.postMessage({ kind: 'match', value: m[0], index: m.index, groups });
  } catch (error) {
    parentPort.postMessage({ kind: 'error', message: String(error && error.message || error) });
  }
});
`;

let worker: Worker | undefined;
let queue: Promise<unknown> = Promise.resolve();

function currentWorker(): Worker {
  if (worker === undefined) {
    worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    const started = worker;
    started.on('error', () => {
      if (worker === started) worker = undefined;
    });
    started.on('exit', () => {
      if (worker === started) worker = undefined;
    });
  }
  return worker;
}

function isOutcome(value: unknown): value is RegexOutcome {
  return typeof value === 'object' && value !== null && 'kind' in value;
}

function runOne(request: RegexRequest, timeoutMs: number): Promise<RegexOutcome> {
  const active = currentWorker();
  return new Promise<RegexOutcome>((resolve) => {
    const finish = (outcome: RegexOutcome) => {
      clearTimeout(timer);
      active.off('message', onMessage);
      active.off('exit', onExit);
      active.unref();
      resolve(outcome);
    };
    const onMessage = (message: unknown) =>
      finish(
        isOutcome(message) ? message : { kind: 'error', message: 'unexpected reply from the regex worker' },
      );
    const onExit = () => finish({ kind: 'error', message: 'the regex worker stopped' });
    const timer = setTimeout(() => {
      if (worker === active) worker = undefined;
      void active.terminate();
      finish({ kind: 'timeout' });
    }, timeoutMs);
    active.on('message', onMessage);
    active.on('exit', onExit);
    active.ref();
    active.postMessage(request);
  });
}

/** Runs `new RegExp(source, flags).exec(text)` off the main thread, stopping it after `timeoutMs`. */
export function execRegex(request: RegexRequest, timeoutMs: number): Promise<RegexOutcome> {
  const result = queue.then(() => runOne(request, timeoutMs));
  queue = result.catch(() => undefined);
  return result;
}
