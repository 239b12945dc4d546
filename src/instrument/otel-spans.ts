import { z } from 'zod';
import { dataDepth, MAX_DATA_DEPTH } from '../util/json-depth.ts';

/** OTLP/JSON as the OpenTelemetry SDKs' JSON serializer and the collector's file exporter write it. */
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
const TimeSchema = z.union([z.string(), z.number()]).optional();
const SpanEventSchema = z
  .object({
    name: z.string().default(''),
    timeUnixNano: TimeSchema,
    attributes: z.array(AttributeSchema).default([]),
  })
  .passthrough();
export const SpanSchema = z
  .object({
    traceId: z.string().default(''),
    spanId: z.string().default(''),
    parentSpanId: z.string().optional(),
    name: z.string().default(''),
    startTimeUnixNano: TimeSchema,
    endTimeUnixNano: TimeSchema,
    attributes: z.array(AttributeSchema).default([]),
    events: z.array(SpanEventSchema).default([]),
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
export type Span = z.infer<typeof SpanSchema>;
export type Attributes = Record<string, unknown>;

export function attributesOf(list: Span['attributes']): Attributes {
  const out: Attributes = {};
  for (const { key, value } of list) out[key] = anyValue(value);
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

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;
/** The first attribute of `keys` that is a number. */
export const firstNum = (attrs: Attributes, ...keys: string[]): number | undefined => {
  for (const key of keys) {
    const value = num(attrs[key]);
    if (value !== undefined) return value;
  }
  return undefined;
};

/** An OTLP time (nanoseconds since the epoch) as an ISO timestamp. */
export function isoTime(nanos: string | number | undefined): string | undefined {
  if (nanos === undefined) return undefined;
  try {
    const ms = Number(BigInt(nanos) / 1_000_000n);
    return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : undefined;
  } catch {
    return undefined;
  }
}

export function durationSeconds(span: Span): number | undefined {
  if (span.startTimeUnixNano === undefined || span.endTimeUnixNano === undefined) return undefined;
  const ns = BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano);
  return ns < 0n ? undefined : Number(ns) / 1e9;
}

export function spanError(span: Span, attrs: Attributes): string | undefined {
  const type = str(attrs['error.type']);
  if (type !== undefined) return type;
  const code = span.status?.code;
  if (code === 2 || code === 'STATUS_CODE_ERROR') return span.status?.message || 'error';
  return undefined;
}

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
