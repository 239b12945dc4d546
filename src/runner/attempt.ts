import type { AgentV1, TrialContext } from '../adapters/types.ts';
import type { AgentOutput } from '../core/agent-output.ts';
import type { TaskInput } from '../core/task.ts';

export interface AttemptOptions {
  readonly retries: number;
  /** First backoff in ms; doubles each attempt up to `maxDelayMs`, with full jitter. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly random: () => number;
  readonly onRetry?: (attempt: number, output: AgentOutput) => void;
}

/**
 * Runs the agent, retrying only outputs the adapter marked `transient` (HTTP 429/5xx, connection
 * resets). The agent is raced against the trial's signal, so an in-process harness that ignores
 * the signal still ends at its timeout.
 */
export async function attemptTrial(
  agent: AgentV1,
  input: TaskInput,
  ctx: TrialContext,
  options: AttemptOptions,
): Promise<{ output: AgentOutput; attempts: number }> {
  let attempts = 0;
  for (;;) {
    attempts++;
    const output = await raceSignal(agent, input, ctx);
    const retryable = output.error_kind === 'transient' && attempts <= options.retries && !ctx.signal.aborted;
    if (!retryable) return { output, attempts };
    options.onRetry?.(attempts, output);
    const cap = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempts - 1));
    await sleep(Math.floor(options.random() * cap), ctx.signal);
  }
}

async function raceSignal(agent: AgentV1, input: TaskInput, ctx: TrialContext): Promise<AgentOutput> {
  const started = performance.now();
  if (ctx.signal.aborted) return abortedOutput(ctx.signal, 0);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<AgentOutput>((resolve) => {
    onAbort = () => resolve(abortedOutput(ctx.signal, (performance.now() - started) / 1000));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([
      agent.run(input, ctx).catch((error: unknown) => thrownOutput(error, started)),
      aborted,
    ]);
  } finally {
    if (onAbort !== undefined) ctx.signal.removeEventListener('abort', onAbort);
  }
}

function abortedOutput(signal: AbortSignal, latency: number): AgentOutput {
  const reason: unknown = signal.reason;
  const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
  return {
    output: null,
    latency,
    tool_calls: [],
    usage: { tokens_in: 0, tokens_out: 0, cached_tokens: 0, cost_usd: null },
    metadata: {},
    error: timedOut ? 'the trial timed out' : 'the trial was aborted',
    error_kind: timedOut ? 'timeout' : 'aborted',
  };
}

/** Adapters must not throw; if one does anyway, the trial records the error instead of crashing the run. */
function thrownOutput(error: unknown, started: number): AgentOutput {
  return {
    output: null,
    latency: (performance.now() - started) / 1000,
    tool_calls: [],
    usage: { tokens_in: 0, tokens_out: 0, cached_tokens: 0, cost_usd: null },
    metadata: {},
    error: `adapter threw: ${error instanceof Error ? error.message : String(error)}`,
    error_kind: 'agent',
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A small seeded PRNG (mulberry32) so `--seed` makes retry jitter reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
