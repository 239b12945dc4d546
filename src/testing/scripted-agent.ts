import { abortedOutput, failedOutput, secondsSince } from '../adapters/agent-result.ts';
import type { FunctionAgent } from '../adapters/function.ts';
import type { AgentV1 } from '../adapters/types.ts';
import {
  type AgentCall,
  type AgentOutput,
  AgentOutputSchema,
  type ErrorKind,
  type ToolCall,
} from '../core/agent-output.ts';
import type { TaskInput } from '../core/task.ts';

/** One model call of a scripted reply, with the tool calls it made. */
export interface ScriptedTurn {
  readonly role?: string;
  readonly model?: string;
  readonly tokens_in?: number;
  readonly tokens_out?: number;
  readonly cached_tokens?: number;
  readonly cost_usd?: number;
  readonly tool_calls?: readonly {
    readonly name: string;
    readonly args?: Record<string, unknown>;
    readonly result?: unknown;
    readonly status?: 'success' | 'error';
  }[];
}

/** What the scripted agent does for one input. */
export interface ScriptedReply {
  /** The answer (default: empty text). */
  readonly output?: AgentOutput['output'];
  /** Waits this long before answering; the trial's signal cuts the wait short. */
  readonly delayMs?: number;
  /** Never answers: only the trial's signal (its timeout, an interrupt) ends the call. */
  readonly hang?: boolean;
  /**
   * Answers with an errored output of this kind (default `agent`). Over HTTP it is a response
   * with `status` (default 503 for `transient`, 422 for any other kind).
   */
  readonly error?: string | { readonly message: string; readonly kind?: ErrorKind; readonly status?: number };
  /**
   * Throws an Error with this message: `scriptedFunction` throws it (for the function adapter to
   * contain); `scriptedAgent`, an AgentV1 that never throws, answers with an `agent` error instead.
   */
  readonly throws?: string;
  /** The model calls it reports: agent calls in the trace, their tool calls, and the usage they sum to. */
  readonly turns?: readonly ScriptedTurn[];
}

/** Replies per input text (an object input is matched by its JSON), and one for any other input. */
export interface Script {
  readonly name?: string;
  readonly answers?: Readonly<Record<string, ScriptedReply>>;
  readonly otherwise?: ScriptedReply;
}

/** The input as the key `answers` is looked up by. */
export function scriptKey(input: TaskInput): string {
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/** The reply a script gives to an input: its own, `otherwise`, or an error naming the input. */
export function replyFor(script: Script, input: TaskInput): ScriptedReply {
  const key = scriptKey(input);
  return (
    script.answers?.[key] ??
    script.otherwise ?? { error: { message: `the script has no answer for ${JSON.stringify(key)}` } }
  );
}

/** Resolves after `ms`, or at once when the signal fires; false when the signal ended the wait. */
export function waitUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (finished: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(finished);
    };
    const onAbort = () => done(false);
    const timer = Number.isFinite(ms) ? setTimeout(() => done(true), ms) : undefined;
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The agent calls and tool calls of a reply's turns. */
export function turnsOf(reply: ScriptedReply): { calls: AgentCall[]; tools: ToolCall[] } {
  const calls: AgentCall[] = [];
  const tools: ToolCall[] = [];
  for (const turn of reply.turns ?? []) {
    calls.push({
      role: turn.role ?? 'agent',
      tokens_in: turn.tokens_in ?? 0,
      tokens_out: turn.tokens_out ?? 0,
      cached_tokens: turn.cached_tokens ?? 0,
      metadata: {},
      ...(turn.model === undefined ? {} : { model: turn.model }),
      ...(turn.cost_usd === undefined ? {} : { cost_usd: turn.cost_usd }),
    });
    for (const tool of turn.tool_calls ?? [])
      tools.push({
        tool_name: tool.name,
        args: tool.args ?? {},
        status: tool.status ?? 'success',
        ...(tool.result === undefined ? {} : { result: tool.result }),
      });
  }
  return { calls, tools };
}

/** The output of a reply that answered: its turns as the trace, tool calls and summed usage. */
export function answeredOutput(reply: ScriptedReply, latency: number): AgentOutput {
  const { calls, tools } = turnsOf(reply);
  const costs = calls.filter((c) => c.cost_usd !== undefined);
  const base = {
    output: reply.output ?? '',
    latency,
    tool_calls: tools,
    usage: {
      tokens_in: calls.reduce((s, c) => s + c.tokens_in, 0),
      tokens_out: calls.reduce((s, c) => s + c.tokens_out, 0),
      cached_tokens: calls.reduce((s, c) => s + c.cached_tokens, 0),
      cost_usd: costs.length === 0 ? null : costs.reduce((s, c) => s + (c.cost_usd ?? 0), 0),
    },
    ...(calls.length === 0 ? {} : { trace: { agent_calls: calls } }),
  };
  if (reply.error === undefined) return AgentOutputSchema.parse(base);
  const error = typeof reply.error === 'string' ? { message: reply.error } : reply.error;
  return AgentOutputSchema.parse({
    ...base,
    output: null,
    error: error.message,
    error_kind: error.kind ?? 'agent',
  });
}

/** Plays a reply: waits or hangs as told (until the signal), then answers; never throws. */
async function play(script: Script, input: TaskInput, signal: AbortSignal): Promise<AgentOutput> {
  const start = performance.now();
  const reply = replyFor(script, input);
  const wait = reply.hang === true ? Number.POSITIVE_INFINITY : (reply.delayMs ?? 0);
  if (!(await waitUnlessAborted(wait, signal)))
    return abortedOutput(signal, { latency: secondsSince(start) });
  if (reply.throws !== undefined)
    return failedOutput('agent', reply.throws, { latency: secondsSince(start) });
  return answeredOutput(reply, secondsSince(start));
}

/**
 * A scripted harness for tests, no model or API key needed: an `AgentV1` that answers each input
 * as the script says — text or JSON, after a delay or never (until the trial's signal), an error,
 * agent calls with tokens and cost, tool calls. Pass it where a harness goes (`runExperiment({
 * harness })`, `new Evaluator(...)`) or to `adapterContract`.
 *
 * @example
 * const agent = scriptedAgent({
 *   answers: {
 *     'What is 2+2?': { output: '4', turns: [{ tokens_in: 12, tokens_out: 1, cost_usd: 0.0001 }] },
 *     'search': { output: 'found', turns: [{ tool_calls: [{ name: 'search', args: { q: 'x' } }] }] },
 *     'slow': { hang: true },
 *   },
 *   otherwise: { error: { message: 'unknown input', kind: 'agent' } },
 * });
 */
export function scriptedAgent(script: Script): AgentV1 {
  return {
    specificationVersion: 'v1',
    name: script.name ?? 'scripted',
    reports: 'response',
    run: (input, ctx) => play(script, input, ctx.signal),
  };
}

/**
 * The same script as a function for the `function` adapter (`module: ./agent.ts#run`): it reports
 * its turns through the context's trackers, returns the answer, and throws when the reply says
 * `throws` (the adapter turns that into the trial's error).
 *
 * @example
 * // agent.ts, named by a harness file as `adapter: function, module: ./agent.ts#run`
 * export const run = scriptedFunction({ answers: { Ada: { output: 'Hello, Ada!' } } });
 */
export function scriptedFunction(script: Script): FunctionAgent {
  return async (input, ctx) => {
    const reply = replyFor(script, input);
    const wait = reply.hang === true ? Number.POSITIVE_INFINITY : (reply.delayMs ?? 0);
    if (!(await waitUnlessAborted(wait, ctx.signal))) return abortedOutput(ctx.signal);
    if (reply.throws !== undefined) throw new Error(reply.throws);
    for (const turn of reply.turns ?? [])
      ctx.agents.record({
        role: turn.role ?? 'agent',
        tokens_in: turn.tokens_in ?? 0,
        tokens_out: turn.tokens_out ?? 0,
        cached_tokens: turn.cached_tokens ?? 0,
        ...(turn.model === undefined ? {} : { model: turn.model }),
        ...(turn.cost_usd === undefined ? {} : { cost_usd: turn.cost_usd }),
      });
    for (const tool of turnsOf(reply).tools) ctx.tools.record(tool);
    if (reply.error === undefined)
      return { output: reply.output ?? '', usage: answeredOutput(reply, 0).usage };
    return answeredOutput({ ...reply, turns: [] }, 0);
  };
}
