import { z } from 'zod';
import type { AgentCall, AgentInvocation, ToolCall } from '../core/agent-output.ts';
import { dataDepth, MAX_DATA_DEPTH } from '../util/json-depth.ts';

/**
 * OpenTelemetry ingestion: OTLP/JSON traces with GenAI semantic-convention spans become the
 * trial's agent invocations (`invoke_agent`), model calls (`chat`, `text_completion`,
 * `generate_content`) and tool calls (`execute_tool`, deduplicated against MCP `tools/call`
 * spans by `gen_ai.tool.call.id`). Tokens are summed from model-call spans only, so an agent span
 * that repeats its children's totals is not counted twice.
 */
interface OtlpAnyValue {
  stringValue?: string | undefined;
  intValue?: string | number | undefined;
  doubleValue?: number | undefined;
  boolValue?: boolean | undefined;
  arrayValue?: { values: OtlpAnyValue[] } | undefined;
}
const AnyValueSchema: z.ZodType<OtlpAnyValue> = z.lazy(() =>
  z.object({
    stringValue: z.string().optional(),
    intValue: z.union([z.string(), z.number()]).optional(),
    doubleValue: z.number().optional(),
    boolValue: z.boolean().optional(),
    arrayValue: z.object({ values: z.array(AnyValueSchema) }).optional(),
  }),
);
const AttributeSchema = z.object({ key: z.string(), value: AnyValueSchema.optional() });
const SpanSchema = z
  .object({
    traceId: z.string().default(''),
    spanId: z.string().default(''),
    parentSpanId: z.string().optional(),
    name: z.string().default(''),
    startTimeUnixNano: z.union([z.string(), z.number()]).optional(),
    endTimeUnixNano: z.union([z.string(), z.number()]).optional(),
    attributes: z.array(AttributeSchema).default([]),
    status: z
      .object({ code: z.union([z.number(), z.string()]).optional(), message: z.string().optional() })
      .optional(),
  })
  .passthrough();
export const OtlpTraceSchema = z.object({
  resourceSpans: z
    .array(
      z
        .object({
          scopeSpans: z.array(z.object({ spans: z.array(SpanSchema).default([]) }).passthrough()).default([]),
        })
        .passthrough(),
    )
    .default([]),
});
type Span = z.infer<typeof SpanSchema>;

export interface OtelIngest {
  readonly invocations: AgentInvocation[];
  readonly agentCalls: AgentCall[];
  readonly toolCalls: ToolCall[];
  tokensIn: number;
  tokensOut: number;
  readonly errors: string[];
  readonly spans: number;
}

const MODEL_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);

/** Reads the spans of an OTLP/JSON document (one object, or several as JSON lines). */
export function ingestOtlp(documents: readonly unknown[]): OtelIngest {
  const spans: Span[] = [];
  for (const doc of documents) {
    const parsed = OtlpTraceSchema.parse(doc);
    for (const rs of parsed.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
  }
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const result: OtelIngest = {
    invocations: [],
    agentCalls: [],
    toolCalls: [],
    tokensIn: 0,
    tokensOut: 0,
    errors: [],
    spans: spans.length,
  };
  const toolIds = new Set<string>();
  const mcpCalls: Span[] = [];

  for (const span of spans) {
    const attrs = attributes(span);
    const operation = str(attrs['gen_ai.operation.name']) ?? operationFromName(span.name);
    const error = spanError(span, attrs);
    if (error !== undefined) result.errors.push(`${span.name}: ${error}`);
    const duration = durationSeconds(span);
    if (operation === 'invoke_agent') {
      result.invocations.push({
        name: str(attrs['gen_ai.agent.name']) ?? span.name,
        ...(str(attrs['gen_ai.agent.id']) === undefined ? {} : { id: str(attrs['gen_ai.agent.id'])! }),
        ...(duration === undefined ? {} : { duration_seconds: duration }),
        ...(error === undefined ? {} : { error }),
      });
    } else if (operation !== undefined && MODEL_OPERATIONS.has(operation)) {
      const tokensIn =
        num(attrs['gen_ai.usage.input_tokens']) ?? num(attrs['gen_ai.usage.prompt_tokens']) ?? 0;
      const tokensOut =
        num(attrs['gen_ai.usage.output_tokens']) ?? num(attrs['gen_ai.usage.completion_tokens']) ?? 0;
      result.tokensIn += tokensIn;
      result.tokensOut += tokensOut;
      const model = str(attrs['gen_ai.response.model']) ?? str(attrs['gen_ai.request.model']);
      const provider = str(attrs['gen_ai.provider.name']) ?? str(attrs['gen_ai.system']);
      result.agentCalls.push({
        role: enclosingAgent(span, byId) ?? 'agent',
        tokens_in: tokensIn,
        tokens_out: tokensOut,
        cached_tokens:
          num(attrs['gen_ai.usage.cache_read.input_tokens']) ?? num(attrs['gen_ai.usage.cached_tokens']) ?? 0,
        metadata: { operation, span_id: span.spanId },
        ...(model === undefined ? {} : { model }),
        ...(provider === undefined ? {} : { provider }),
        ...(duration === undefined ? {} : { duration_seconds: duration }),
        ...(error === undefined ? {} : { error }),
      });
    } else if (operation === 'execute_tool') {
      const id = str(attrs['gen_ai.tool.call.id']);
      if (id !== undefined) toolIds.add(id);
      result.toolCalls.push(toolCall(span, attrs, duration, error));
    } else if (str(attrs['mcp.method.name']) === 'tools/call' || span.name.startsWith('tools/call')) {
      mcpCalls.push(span);
    }
  }
  // An MCP client span for a call the agent framework already reported is the same call.
  for (const span of mcpCalls) {
    const attrs = attributes(span);
    const id = str(attrs['gen_ai.tool.call.id']);
    if (id !== undefined && toolIds.has(id)) continue;
    result.toolCalls.push(toolCall(span, attrs, durationSeconds(span), spanError(span, attrs)));
  }
  return result;
}

function toolCall(
  span: Span,
  attrs: Record<string, unknown>,
  duration: number | undefined,
  error: string | undefined,
): ToolCall {
  const name =
    str(attrs['gen_ai.tool.name']) ?? span.name.replace(/^(execute_tool|tools\/call)\s*/, '') ?? span.name;
  const id = str(attrs['gen_ai.tool.call.id']);
  let args: Record<string, unknown> = {};
  const rawArgs = str(attrs['gen_ai.tool.call.arguments']);
  if (rawArgs !== undefined) {
    try {
      const parsed: unknown = JSON.parse(rawArgs);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        args = parsed as Record<string, unknown>;
    } catch {
      args = { raw: rawArgs };
    }
  }
  return {
    tool_name: name || span.name,
    args,
    status: error === undefined ? 'success' : 'error',
    ...(id === undefined ? {} : { id }),
    ...(duration === undefined ? {} : { duration }),
    ...(error === undefined ? {} : { result: error }),
  };
}

function operationFromName(name: string): string | undefined {
  const first = name.split(' ')[0];
  return first !== undefined &&
    (MODEL_OPERATIONS.has(first) || first === 'invoke_agent' || first === 'execute_tool')
    ? first
    : undefined;
}

function enclosingAgent(span: Span, byId: Map<string, Span>): string | undefined {
  let current = span.parentSpanId === undefined ? undefined : byId.get(span.parentSpanId);
  for (let depth = 0; current !== undefined && depth < 1000; depth++) {
    const attrs = attributes(current);
    if ((str(attrs['gen_ai.operation.name']) ?? operationFromName(current.name)) === 'invoke_agent') {
      return str(attrs['gen_ai.agent.name']) ?? current.name;
    }
    current = current.parentSpanId === undefined ? undefined : byId.get(current.parentSpanId);
  }
  return undefined;
}

function spanError(span: Span, attrs: Record<string, unknown>): string | undefined {
  const type = str(attrs['error.type']);
  if (type !== undefined) return type;
  const code = span.status?.code;
  if (code === 2 || code === 'STATUS_CODE_ERROR') return span.status?.message || 'error';
  return undefined;
}

function durationSeconds(span: Span): number | undefined {
  if (span.startTimeUnixNano === undefined || span.endTimeUnixNano === undefined) return undefined;
  const ns = BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano);
  return ns < 0n ? undefined : Number(ns) / 1e9;
}

function attributes(span: Span): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of span.attributes) out[key] = anyValue(value);
  return out;
}

function anyValue(v: OtlpAnyValue | undefined): unknown {
  if (v === undefined) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue !== undefined) return v.arrayValue.values.map(anyValue);
  return undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * Parses OTLP/JSON text: one JSON document, or one per line (the collector's file exporter).
 * Returns the documents or the 1-based line of the first that is not JSON.
 */
export function parseOtlpText(text: string): { documents: unknown[] } | { line: number; error: string } {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') return { documents: [] };
  // Span attributes nest (arrayValue); the schema walks them recursively, so depth is bounded first.
  const tooDeep = (doc: unknown) => dataDepth(doc) > MAX_DATA_DEPTH;
  const deepError = `the document nests more than ${MAX_DATA_DEPTH} levels deep`;
  try {
    const doc: unknown = JSON.parse(trimmed);
    return tooDeep(doc) ? { line: 1, error: deepError } : { documents: [doc] };
  } catch {
    // not one document: try JSON lines
  }
  const documents: unknown[] = [];
  const lines = trimmed.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    try {
      const doc: unknown = JSON.parse(line);
      if (tooDeep(doc)) return { line: i + 1, error: deepError };
      documents.push(doc);
    } catch (error) {
      return { line: i + 1, error: error instanceof Error ? error.message : String(error) };
    }
  }
  return { documents };
}
