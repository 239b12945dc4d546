import type { AgentV1, TrialContext } from '../adapters/types.ts';
import { type AgentOutput, AgentOutputSchema, type Usage } from '../core/agent-output.ts';
import type { Task } from '../core/task.ts';
import { RunTracker, type TrackerViews } from './tracker.ts';

/** What an in-process harness gets for one run of a task (seed 004: `run(task, ctx)`). */
export interface HarnessContext extends TrackerViews {
  readonly task: Task;
  readonly epoch: number;
  /** The trial's workspace (a fresh copy of the task's codebase), when the task has one. */
  readonly workspace?: string;
  /** Fires at the trial's timeout or when the run is interrupted: stop work and return. */
  readonly signal: AbortSignal;
  /** The tracker behind the per-concept views. */
  readonly track: RunTracker;
  /** Seed for the harness's own randomness (`--seed`), per trial. */
  readonly seed: number;
  /** The harness config's `options.options` (function adapter), e.g. a version's settings. */
  readonly options: Readonly<Record<string, unknown>>;
}

/** What `run` may return: nothing (the work is in the workspace), text, or an object with details. */
export type HarnessResult =
  | undefined
  | string
  | {
      readonly output?: unknown;
      readonly usage?: Partial<Usage>;
      readonly metadata?: Record<string, unknown>;
      readonly error?: string;
    };

/** A harness implemented in TypeScript or JavaScript. */
export interface Harness {
  readonly name?: string;
  run(task: Task, ctx: HarnessContext): Promise<HarnessResult> | HarnessResult;
}

export function isHarness(value: unknown): value is Harness {
  return (
    typeof value === 'object' && value !== null && typeof (value as { run?: unknown }).run === 'function'
  );
}

/**
 * Drives an in-process harness as an agent: gives it trackers, and turns what it reports into the
 * trial's trace. A throw becomes an error output; it never escapes.
 */
export function harnessAgent(
  harness: Harness,
  name = harness.name ?? 'harness',
  options: Readonly<Record<string, unknown>> = {},
): AgentV1 {
  return {
    specificationVersion: 'v1',
    name,
    reports: 'trackers',
    async run(_input, ctx: TrialContext): Promise<AgentOutput> {
      const tracker = new RunTracker();
      const started = performance.now();
      const context: HarnessContext = {
        ...tracker.views(),
        task: ctx.task,
        epoch: ctx.epoch,
        signal: ctx.signal,
        track: tracker,
        seed: Number(ctx.env['HARNESSEVAL_SEED'] ?? 0),
        options,
        ...(ctx.workspace === undefined ? {} : { workspace: ctx.workspace }),
      };
      let result: HarnessResult;
      let error: string | undefined;
      try {
        result = await harness.run(ctx.task, context);
      } catch (thrown) {
        error = thrown instanceof Error ? thrown.message : String(thrown);
      }
      const latency = (performance.now() - started) / 1000;
      return toOutput(result, tracker, latency, error);
    },
  };
}

function toOutput(
  result: HarnessResult,
  tracker: RunTracker,
  latency: number,
  thrown: string | undefined,
): AgentOutput {
  const trace = tracker.trace();
  const calls = trace.agent_calls;
  const reported = typeof result === 'object' && result !== null ? result : undefined;
  const costs = calls.filter((c) => c.cost_usd !== undefined);
  const usage = {
    tokens_in: calls.reduce((s, c) => s + c.tokens_in, 0),
    tokens_out: calls.reduce((s, c) => s + c.tokens_out, 0),
    cached_tokens: calls.reduce((s, c) => s + c.cached_tokens, 0),
    cost_usd: costs.length > 0 ? costs.reduce((s, c) => s + (c.cost_usd ?? 0), 0) : null,
    ...reported?.usage,
  };
  const output = typeof result === 'string' ? result : reported?.output === undefined ? '' : reported.output;
  const error = thrown ?? reported?.error;
  const parsed = AgentOutputSchema.safeParse({
    output:
      typeof output === 'string' || (typeof output === 'object' && output !== null)
        ? output
        : JSON.stringify(output),
    latency,
    tool_calls: tracker.toolCalls(),
    usage,
    trace,
    metadata: reported?.metadata ?? {},
    ...(error === undefined ? {} : { error, error_kind: 'agent' }),
  });
  if (parsed.success) return parsed.data;
  return AgentOutputSchema.parse({
    output: null,
    latency,
    trace,
    error: `the harness returned an invalid result: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    error_kind: 'invalid_output',
  });
}
