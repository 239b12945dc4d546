import { abortedOutput, checkedAdapterOutput, failedOutput, secondsSince } from '../adapters/agent-result.ts';
import type { AgentV1, TrialContext } from '../adapters/types.ts';
import type { AgentOutput } from '../core/agent-output.ts';
import { errorMessage } from '../core/errors.ts';
import type { TaskInput } from '../core/task.ts';
import { backoffDelay, sleep } from '../util/retry.ts';

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
 * resets). The agent is raced against the trial's signal, so a plugin adapter that ignores the
 * signal still ends at the timeout.
 */
export async function attemptTrial(
  agent: AgentV1,
  input: TaskInput,
  ctx: TrialContext,
  options: AttemptOptions,
): Promise<{ output: AgentOutput; attempts: number }> {
  for (let attempt = 0; ; attempt++) {
    const output = await raceSignal(agent, input, ctx);
    if (output.error_kind !== 'transient' || attempt >= options.retries || ctx.signal.aborted) {
      return { output, attempts: attempt + 1 };
    }
    options.onRetry?.(attempt + 1, output);
    const delay = backoffDelay(attempt, {
      baseMs: options.baseDelayMs,
      maxMs: options.maxDelayMs,
      random: options.random,
    });
    await sleep(delay, ctx.signal).catch(() => undefined);
  }
}

async function raceSignal(agent: AgentV1, input: TaskInput, ctx: TrialContext): Promise<AgentOutput> {
  const started = performance.now();
  if (ctx.signal.aborted) return abortedOutput(ctx.signal);
  let onAbort = (): void => {};
  let abortedFirst = false;
  const aborted = new Promise<AgentOutput>((resolve) => {
    onAbort = () => {
      abortedFirst = true;
      resolve(abortedOutput(ctx.signal, { latency: secondsSince(started) }));
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  // Adapters must not throw; if a plugin does anyway, the trial records it instead of crashing the run.
  const run = agent.run(input, ctx).then(
    (output: unknown) => checkedAdapterOutput(output, secondsSince(started)),
    (error: unknown) =>
      failedOutput('agent', `adapter threw: ${errorMessage(error)}`, { latency: secondsSince(started) }),
  );
  try {
    const first = await Promise.race([run, aborted]);
    if (!abortedFirst) return first;
    // An adapter that stops its harness at the signal returns what it saw so far (the calls and
    // tool uses of a killed CLI); one that ignores the signal is left behind after a grace period.
    const own = await Promise.race([run, sleep(ABORT_GRACE_MS).then(() => undefined)]);
    if (own === undefined) return first;
    return own.error === undefined
      ? { ...own, output: null, error: first.error, error_kind: first.error_kind }
      : own;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/** How long an aborted adapter may take to return its own (partial) output. */
const ABORT_GRACE_MS = 3000;

/** Retry jitter is reproducible with `--seed`: the same PRNG the statistics use. */
export { mulberry32 as seededRandom } from '../stats/bootstrap.ts';
