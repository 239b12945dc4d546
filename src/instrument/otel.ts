import type {
  AgentCall,
  AgentInvocation,
  CircuitBreakerEvent,
  HumanTouchpoint,
  OperatorPrompt,
  ReportedCost,
  ToolCall,
} from '../core/agent-output.ts';
import { harnessSignal, isHarnessEventName } from './otel-harness-events.ts';
import {
  type Attributes,
  attributesOf,
  durationSeconds,
  firstNum,
  isoTime,
  OtlpTraceSchema,
  type Span,
  spanError,
  str,
} from './otel-spans.ts';

export { OtlpTraceSchema, parseOtlpText } from './otel-spans.ts';

/**
 * OpenTelemetry ingestion: OTLP/JSON traces become the trial's agent invocations (`invoke_agent`),
 * model calls and tool calls.
 *
 * - Model calls: GenAI spans whose operation (`gen_ai.operation.name`, or the span name's first
 *   word) is `chat`, `text_completion`, `generate_content` or `embeddings`; and spans with no
 *   operation that carry `gen_ai.usage.*` tokens (the Vercel AI SDK's `ai.generateText.doGenerate`)
 *   unless a span below them does too (then they total their children).
 * - Tool calls: `execute_tool` and the AI SDK's `ai.toolCall` spans, deduplicated against MCP
 *   `tools/call` spans by the call id.
 * - `harnesseval.*` span events (or spans) report prompts, human touchpoints, circuit breakers,
 *   first-pass approval and costs outside model calls (see `otel-harness-events.ts`).
 * Tokens are summed from model calls only, so an agent span repeating its children's totals is
 * not counted twice.
 */
export interface OtelIngest {
  readonly invocations: AgentInvocation[];
  readonly agentCalls: AgentCall[];
  readonly toolCalls: ToolCall[];
  readonly prompts: OperatorPrompt[];
  readonly human: HumanTouchpoint[];
  readonly circuitBreakers: CircuitBreakerEvent[];
  readonly costs: ReportedCost[];
  firstPassApproval: boolean | undefined;
  tokensIn: number;
  tokensOut: number;
  readonly errors: string[];
  /** `harnesseval.*` events that could not count, with the reason. */
  readonly problems: string[];
  readonly spans: number;
}

const MODEL_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'embeddings']);
const NAMED_OPERATIONS = new Set([...MODEL_OPERATIONS, 'invoke_agent', 'execute_tool']);
const USAGE_KEYS = [
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.output_tokens',
  'gen_ai.usage.prompt_tokens',
  'gen_ai.usage.completion_tokens',
];

/** Reads the spans of an OTLP/JSON document (one object, or several as JSON lines). */
export function ingestOtlp(documents: readonly unknown[]): OtelIngest {
  const spans: Span[] = [];
  for (const doc of documents) {
    const parsed = OtlpTraceSchema.parse(doc);
    for (const rs of parsed.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
  }
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const attrsOf = new Map(spans.map((s) => [s, attributesOf(s.attributes)]));
  const result: OtelIngest = {
    invocations: [],
    agentCalls: [],
    toolCalls: [],
    prompts: [],
    human: [],
    circuitBreakers: [],
    costs: [],
    firstPassApproval: undefined,
    tokensIn: 0,
    tokensOut: 0,
    errors: [],
    problems: [],
    spans: spans.length,
  };
  const hasUsage = (attrs: Attributes) => USAGE_KEYS.some((k) => attrs[k] !== undefined);
  // Spans with usage and no operation whose descendants also carry usage are totals.
  const totals = new Set<string>();
  for (const span of spans) {
    const attrs = attrsOf.get(span)!;
    if (!hasUsage(attrs)) continue;
    for (let p = parentOf(span, byId), d = 0; p !== undefined && d < 1000; p = parentOf(p, byId), d++)
      totals.add(p.spanId);
  }
  const toolIds = new Set<string>();
  const mcpCalls: Span[] = [];

  for (const span of spans) {
    const attrs = attrsOf.get(span)!;
    readHarnessEvents(span, attrs, result);
    const operation = operationOf(span, attrs);
    const error = spanError(span, attrs);
    if (error !== undefined) result.errors.push(`${span.name}: ${error}`);
    const duration = durationSeconds(span);
    const untyped = operation === undefined && hasUsage(attrs) && !totals.has(span.spanId);
    if (operation === 'invoke_agent') {
      const id = str(attrs['gen_ai.agent.id']);
      result.invocations.push({
        name: str(attrs['gen_ai.agent.name']) ?? span.name,
        ...(id === undefined ? {} : { id }),
        ...(duration === undefined ? {} : { duration_seconds: duration }),
        ...(error === undefined ? {} : { error }),
      });
    } else if ((operation !== undefined && MODEL_OPERATIONS.has(operation)) || untyped) {
      const call = modelCall(span, attrs, byId, attrsOf, {
        operation: operation ?? span.name,
        duration,
        error,
      });
      result.tokensIn += call.tokens_in;
      result.tokensOut += call.tokens_out;
      result.agentCalls.push(call);
    } else if (operation === 'execute_tool' || span.name === 'ai.toolCall') {
      const id = str(attrs['gen_ai.tool.call.id']) ?? str(attrs['ai.toolCall.id']);
      if (id !== undefined) toolIds.add(id);
      result.toolCalls.push(toolCall(span, attrs, duration, error));
    } else if (str(attrs['mcp.method.name']) === 'tools/call' || span.name.startsWith('tools/call')) {
      mcpCalls.push(span);
    }
  }
  // An MCP client span for a call the agent framework already reported is the same call.
  for (const span of mcpCalls) {
    const attrs = attrsOf.get(span)!;
    const id = str(attrs['gen_ai.tool.call.id']);
    if (id !== undefined && toolIds.has(id)) continue;
    result.toolCalls.push(toolCall(span, attrs, durationSeconds(span), spanError(span, attrs)));
  }
  return result;
}

function parentOf(span: Span, byId: Map<string, Span>): Span | undefined {
  return span.parentSpanId === undefined || span.parentSpanId === ''
    ? undefined
    : byId.get(span.parentSpanId);
}

function operationOf(span: Span, attrs: Attributes): string | undefined {
  const named = str(attrs['gen_ai.operation.name']);
  if (named !== undefined) return named;
  const first = span.name.split(' ')[0];
  return first !== undefined && NAMED_OPERATIONS.has(first) ? first : undefined;
}

function modelCall(
  span: Span,
  attrs: Attributes,
  byId: Map<string, Span>,
  attrsOf: Map<Span, Attributes>,
  at: { operation: string; duration: number | undefined; error: string | undefined },
): AgentCall {
  const model = str(attrs['gen_ai.response.model']) ?? str(attrs['gen_ai.request.model']);
  const provider = str(attrs['gen_ai.provider.name']) ?? str(attrs['gen_ai.system']);
  const id = str(attrs['gen_ai.response.id']);
  const cacheWrite = firstNum(
    attrs,
    'gen_ai.usage.cache_creation.input_tokens',
    'ai.usage.inputTokenDetails.cacheWriteTokens',
  );
  return {
    role: enclosingAgent(span, byId, attrsOf) ?? str(attrs['ai.telemetry.functionId']) ?? 'agent',
    tokens_in: firstNum(attrs, 'gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens') ?? 0,
    tokens_out: firstNum(attrs, 'gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens') ?? 0,
    cached_tokens:
      firstNum(
        attrs,
        'gen_ai.usage.cache_read.input_tokens',
        'gen_ai.usage.cached_tokens',
        'ai.usage.inputTokenDetails.cacheReadTokens',
        'ai.usage.cachedInputTokens',
      ) ?? 0,
    ...(cacheWrite === undefined || cacheWrite === 0 ? {} : { cache_write_tokens: cacheWrite }),
    metadata: { operation: at.operation, span_id: span.spanId },
    ...(id === undefined ? {} : { id }),
    ...(model === undefined ? {} : { model }),
    ...(provider === undefined ? {} : { provider }),
    ...(at.duration === undefined ? {} : { duration_seconds: at.duration }),
    ...(at.error === undefined ? {} : { error: at.error }),
  };
}

/** The `harnesseval.*` span events of a span, and the span itself when it is named like one. */
function readHarnessEvents(span: Span, attrs: Attributes, into: OtelIngest): void {
  const found: { name: string; attrs: Attributes; at: string | undefined }[] = span.events
    .filter((e) => isHarnessEventName(e.name))
    .map((e) => ({ name: e.name, attrs: attributesOf(e.attributes), at: isoTime(e.timeUnixNano) }));
  if (isHarnessEventName(span.name))
    found.push({ name: span.name, attrs, at: isoTime(span.startTimeUnixNano) });
  for (const event of found) {
    if (!isHarnessEventName(event.name)) continue;
    const signal = harnessSignal(event.name, event.attrs, event.at);
    if (typeof signal === 'string') {
      into.problems.push(`${span.name}: ${signal}`);
      continue;
    }
    switch (signal.kind) {
      case 'prompt':
        into.prompts.push(signal.value);
        break;
      case 'human':
        into.human.push(signal.value);
        break;
      case 'circuit_breaker':
        into.circuitBreakers.push(signal.value);
        break;
      case 'first_pass_approval':
        into.firstPassApproval = signal.value;
        break;
      case 'cost':
        into.costs.push(signal.value);
        break;
    }
  }
}

function toolCall(
  span: Span,
  attrs: Attributes,
  duration: number | undefined,
  error: string | undefined,
): ToolCall {
  const name =
    str(attrs['gen_ai.tool.name']) ??
    str(attrs['ai.toolCall.name']) ??
    span.name.replace(/^(execute_tool|tools\/call)\s*/, '');
  const id = str(attrs['gen_ai.tool.call.id']) ?? str(attrs['ai.toolCall.id']);
  let args: Record<string, unknown> = {};
  const rawArgs = str(attrs['gen_ai.tool.call.arguments']) ?? str(attrs['ai.toolCall.args']);
  if (rawArgs !== undefined) {
    try {
      const parsed: unknown = JSON.parse(rawArgs);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        args = parsed as Record<string, unknown>;
    } catch {
      args = { raw: rawArgs };
    }
  }
  const result = error ?? str(attrs['gen_ai.tool.call.result']) ?? str(attrs['ai.toolCall.result']);
  return {
    tool_name: name || span.name,
    args,
    status: error === undefined ? 'success' : 'error',
    ...(id === undefined ? {} : { id }),
    ...(duration === undefined ? {} : { duration }),
    ...(result === undefined ? {} : { result }),
  };
}

function enclosingAgent(
  span: Span,
  byId: Map<string, Span>,
  attrsOf: Map<Span, Attributes>,
): string | undefined {
  let current = parentOf(span, byId);
  for (let depth = 0; current !== undefined && depth < 1000; depth++) {
    const attrs = attrsOf.get(current) ?? {};
    if (operationOf(current, attrs) === 'invoke_agent')
      return str(attrs['gen_ai.agent.name']) ?? current.name;
    current = parentOf(current, byId);
  }
  return undefined;
}
