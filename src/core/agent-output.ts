import { z } from 'zod';

export const ToolCallStatusSchema = z.enum(['success', 'error']);

/** One tool invocation by the harness (MCP or otherwise). */
export const ToolCallSchema = z.object({
  tool_name: z.string(),
  args: z.record(z.string(), z.unknown()).default({}),
  result: z.unknown().optional(),
  /** Seconds. */
  duration: z.number().nonnegative().optional(),
  status: ToolCallStatusSchema.default('success'),
  id: z.string().optional(),
  role: z.string().optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/**
 * Tokens and cost. `tokens_in` counts every input token; `cached_tokens` (cache reads) and
 * `cache_write_tokens` (cache writes) are the parts of it billed at other prices.
 */
export const UsageSchema = z.object({
  tokens_in: z.number().nonnegative().default(0),
  tokens_out: z.number().nonnegative().default(0),
  cached_tokens: z.number().nonnegative().default(0),
  cache_write_tokens: z.number().nonnegative().optional(),
  /** null when nobody reported a cost and no price was known for the model. */
  cost_usd: z.number().nonnegative().nullable().default(null),
  /**
   * Model calls that spent tokens but have neither a reported cost nor a known price: when
   * above 0, `cost_usd` is partial (it covers the other calls only).
   */
  unpriced_calls: z.number().int().nonnegative().optional(),
  /**
   * true when nobody reported token counts (an imported run whose tool had none): the zeros
   * above then mean "unknown", and token metrics leave the trial out instead of counting 0.
   */
  tokens_unknown: z.literal(true).optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const AgentCallSchema = z.object({
  /**
   * The call's own id (the provider's response id, a transcript's message id): a call reported
   * through two channels under the same id (events and OpenTelemetry) counts once.
   */
  id: z.string().optional(),
  role: z.string().default('agent'),
  model: z.string().optional(),
  provider: z.string().optional(),
  tokens_in: z.number().nonnegative().default(0),
  tokens_out: z.number().nonnegative().default(0),
  cached_tokens: z.number().nonnegative().default(0),
  /** Input tokens written to the prompt cache (part of `tokens_in`, like `cached_tokens`). */
  cache_write_tokens: z.number().nonnegative().optional(),
  cost_usd: z.number().nonnegative().optional(),
  duration_seconds: z.number().nonnegative().optional(),
  at: z.string().optional(),
  error: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type AgentCall = z.infer<typeof AgentCallSchema>;

export const PlannedSchema = z.enum(['planned', 'unplanned']);
export type Planned = z.infer<typeof PlannedSchema>;

/** An operator prompt: a human typing into the harness (planned by design, or unplanned). */
export const OperatorPromptSchema = z.object({
  kind: PlannedSchema,
  role: z.string().optional(),
  text: z.string().optional(),
  at: z.string().optional(),
});
export type OperatorPrompt = z.infer<typeof OperatorPromptSchema>;

/** `permission`: the harness asked for (or was refused) permission to use a tool. */
export const HumanActionSchema = z.enum(['review', 'edit', 'approve', 'reject', 'answer', 'permission']);
export type HumanAction = z.infer<typeof HumanActionSchema>;

export const HumanTouchpointSchema = z.object({
  action: HumanActionSchema,
  kind: PlannedSchema,
  minutes: z.number().nonnegative().default(0),
  note: z.string().optional(),
  at: z.string().optional(),
});
export type HumanTouchpoint = z.infer<typeof HumanTouchpointSchema>;

export const CircuitBreakerSchema = z.object({
  /** e.g. `CB2:review-rejection`. */
  type: z.string().min(1),
  trigger: z.string().optional(),
  resolution: z.string().optional(),
  at: z.string().optional(),
});
export type CircuitBreakerEvent = z.infer<typeof CircuitBreakerSchema>;

/** An agent invocation (OpenTelemetry `invoke_agent`): the agent, not its model calls. */
export const AgentInvocationSchema = z.object({
  name: z.string(),
  id: z.string().optional(),
  duration_seconds: z.number().nonnegative().optional(),
  error: z.string().optional(),
});
export type AgentInvocation = z.infer<typeof AgentInvocationSchema>;

/** A cost reported apart from model calls (a `cost` event): a tool, an API, a sandbox. */
export const ReportedCostSchema = z.object({
  cost_usd: z.number().nonnegative(),
  role: z.string().optional(),
  model: z.string().optional(),
  tokens_in: z.number().nonnegative().default(0),
  tokens_out: z.number().nonnegative().default(0),
});
export type ReportedCost = z.infer<typeof ReportedCostSchema>;

export const MalformedEventSchema = z.object({
  line: z.number().int().nonnegative(),
  error: z.string(),
});

/** What happened inside the harness during one trial, as reported by trackers, events or traces. */
export const TraceSchema = z.object({
  agent_calls: z.array(AgentCallSchema).default([]),
  agent_invocations: z.array(AgentInvocationSchema).default([]),
  prompts: z.array(OperatorPromptSchema).default([]),
  human: z.array(HumanTouchpointSchema).default([]),
  circuit_breakers: z.array(CircuitBreakerSchema).default([]),
  /** Costs reported apart from model calls; they add to the trial's cost. */
  costs: z.array(ReportedCostSchema).optional(),
  /** The harness's own verdict on first-pass approval, when it reports one explicitly. */
  first_pass_approval: z.boolean().optional(),
  malformed_events: z.array(MalformedEventSchema).default([]),
});
export type Trace = z.infer<typeof TraceSchema>;

export const ErrorKindSchema = z.enum([
  'transient', // retryable: HTTP 429/5xx, connection reset
  'timeout',
  'agent', // the harness reported or raised an error
  'crash', // the process exited abnormally
  // A tool server's answers (MCP): the call named no tool it has, its arguments were refused, or
  // the tool ran and reported an error. Distinct so a test can expect one (`expect_error`).
  'tool_unknown',
  'tool_invalid_args',
  'tool_error',
  'config', // the adapter is misconfigured (module not found, server fails to start)
  'invalid_output', // the output could not be parsed
  'output_too_deep', // the output nests deeper than HarnessEval walks (MAX_DATA_DEPTH)
  'aborted',
  'environment', // a check could not run where it ran (a missing package or command), not the harness's fault
  // The infrastructure around the harness failed (an imported Harbor trial whose container did not
  // start, an Inspect sample that hit a sandbox error): like `environment`, it says nothing of the harness.
  'infra',
]);
export type ErrorKind = z.infer<typeof ErrorKindSchema>;

/**
 * Errors that are the system's own answer to the input (a refusal, a tool error, a crash), as
 * opposed to the run failing around it (a timeout, a bad config, an interruption). Only these can
 * be what a test expects (`expect_error`).
 */
export const ANSWER_ERROR_KINDS: readonly ErrorKind[] = [
  'agent',
  'crash',
  'tool_unknown',
  'tool_invalid_args',
  'tool_error',
];

/** What an adapter returns for one trial. Adapters never throw: failures set `error`. */
export const AgentOutputSchema = z.object({
  output: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown()), z.null()]),
  /** Structured output (MCP `structuredContent`, parsed JSON) when there is one. */
  structured: z.unknown().optional(),
  /** Seconds. */
  latency: z.number().nonnegative().default(0),
  tool_calls: z.array(ToolCallSchema).default([]),
  usage: UsageSchema.default({
    tokens_in: 0,
    tokens_out: 0,
    cached_tokens: 0,
    cost_usd: null,
  }),
  trace: TraceSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
  error: z.string().optional(),
  error_kind: ErrorKindSchema.optional(),
});
export type AgentOutput = z.infer<typeof AgentOutputSchema>;
export type AgentOutputDraft = z.input<typeof AgentOutputSchema>;

/** Builds a complete AgentOutput from a partial one (defaults filled in). */
export function agentOutput(draft: AgentOutputDraft): AgentOutput {
  return AgentOutputSchema.parse(draft);
}

/** The output as text: strings as they are, anything else as JSON. */
export function outputText(output: AgentOutput): string {
  if (typeof output.output === 'string') return output.output;
  if (output.output === null) return '';
  return JSON.stringify(output.output);
}

/** A trace with nothing in it. */
export function emptyTrace(): Trace {
  // A literal, not `TraceSchema.parse({})`: the runner needs one per trial and parsing costs ~20 µs.
  // test/unit/core keeps the two equal.
  return {
    agent_calls: [],
    agent_invocations: [],
    prompts: [],
    human: [],
    circuit_breakers: [],
    malformed_events: [],
  };
}
