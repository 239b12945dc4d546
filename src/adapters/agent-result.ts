import { type AgentOutput, AgentOutputSchema, type ErrorKind } from '../core/agent-output.ts';
import { errorMessage } from '../core/errors.ts';
import { compileExactCheck } from '../util/exact-check.ts';
import { dataDepth, MAX_DATA_DEPTH } from '../util/json-depth.ts';
import { isTimeoutReason } from '../util/timeout.ts';

/** The largest output an adapter accepts from a harness (bytes of its JSON or text). */
export const MAX_OUTPUT_BYTES = 10 * 1024 * 1024;

export interface FailureDetails {
  readonly latency?: number;
  readonly metadata?: Record<string, unknown>;
}

/** An AgentOutput that records a failure; adapters return this instead of throwing. */
export function failedOutput(kind: ErrorKind, message: string, details: FailureDetails = {}): AgentOutput {
  return AgentOutputSchema.parse({
    output: null,
    latency: details.latency ?? 0,
    metadata: details.metadata ?? {},
    error: message,
    error_kind: kind,
  });
}

/** The failure for a trial whose signal fired: `timeout` at its deadline, `aborted` on interruption. */
export function abortedOutput(signal: AbortSignal, details: FailureDetails = {}): AgentOutput {
  return isTimeoutReason(signal.reason)
    ? failedOutput('timeout', `the agent did not finish in time (${errorMessage(signal.reason)})`, details)
    : failedOutput('aborted', `the trial was aborted: ${errorMessage(signal.reason)}`, details);
}

/** Seconds since `start` (a `performance.now()` reading). */
export function secondsSince(start: number): number {
  return Math.max(0, (performance.now() - start) / 1000);
}

/**
 * `transient` for errors worth retrying — an error marked `transient: true`, or carrying an
 * HTTP `status` (or `statusCode`) of 429 or 5xx — and `agent` for everything else.
 */
export function thrownErrorKind(error: unknown): 'transient' | 'agent' {
  if (typeof error !== 'object' || error === null) return 'agent';
  if ('transient' in error && error.transient === true) return 'transient';
  const status = 'status' in error ? error.status : 'statusCode' in error ? error.statusCode : undefined;
  return typeof status === 'number' && isTransientStatus(status) ? 'transient' : 'agent';
}

export function isTransientStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

export type JsonData =
  | { ok: true; value: unknown; bytes: number }
  | { ok: false; reason: string; kind: 'invalid_output' | 'output_too_deep' };

/** Why `value` cannot be walked safely (too deep, or a cycle), or undefined when it can. */
export function tooDeep(
  value: unknown,
  what = 'the output',
): { kind: 'output_too_deep' | 'invalid_output'; reason: string } | undefined {
  const depth = dataDepth(value);
  if (depth <= MAX_DATA_DEPTH) return undefined;
  if (depth === Number.POSITIVE_INFINITY)
    return { kind: 'invalid_output', reason: `${what} holds a cycle, not JSON data` };
  return {
    kind: 'output_too_deep',
    reason: `${what} nests more than ${MAX_DATA_DEPTH} levels deep; HarnessEval does not store or judge data that deep`,
  };
}

/**
 * The output unchanged, or the trial's `output_too_deep` error when any part of it (output,
 * structured output, tool calls, trace, metadata) nests deeper than `MAX_DATA_DEPTH`. The runner
 * applies it to what every adapter returns, so nothing downstream meets data deep enough to
 * overflow a recursive walk (JSON.stringify included).
 */
export function refuseTooDeep(output: AgentOutput): AgentOutput {
  const refused = tooDeep(output, "the agent's result");
  if (refused === undefined) return output;
  return failedOutput(refused.kind, refused.reason, {
    latency: output.latency,
    ...(tooDeep(output.metadata) === undefined ? { metadata: output.metadata } : {}),
  });
}

class NotData extends Error {}

/**
 * A plain-data copy of whatever a harness returned: functions, symbols, BigInts and cycles are
 * refused (the output is data, it is never called or kept by reference), and so is anything over
 * `MAX_OUTPUT_BYTES` once serialized.
 */
export function toJsonData(value: unknown, maxBytes = MAX_OUTPUT_BYTES): JsonData {
  const refused = tooDeep(value, 'the returned value');
  if (refused !== undefined) return { ok: false, ...refused };
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (key, item: unknown) => {
      if (typeof item === 'function' || typeof item === 'symbol') {
        throw new NotData(`${describeKey(key)} is a ${typeof item}, not JSON data`);
      }
      return item;
    });
  } catch (error) {
    const reason = error instanceof NotData ? error.message : `not JSON data: ${errorMessage(error)}`;
    return { ok: false, reason, kind: 'invalid_output' };
  }
  if (text === undefined) return { ok: true, value: null, bytes: 0 };
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) {
    return {
      ok: false,
      reason: `the output is ${bytes} bytes, more than the limit of ${maxBytes}`,
      kind: 'invalid_output',
    };
  }
  return { ok: true, value: JSON.parse(text), bytes };
}

function describeKey(key: string): string {
  return key === '' ? 'the returned value' : `the value at "${key}"`;
}

/**
 * Turns what a harness returned into an AgentOutput: a string is the output; an object with an
 * `output` field is an AgentOutput draft (validated; `latency` filled in when missing); any other
 * JSON value is the output (numbers and booleans as their JSON text, kept in `structured`).
 */
/** True only when AgentOutputSchema's parse would return the value unchanged (util/exact-check.ts). */
const exactOutput = compileExactCheck(AgentOutputSchema);

/**
 * What an adapter's `run` resolved with, as an AgentOutput. The built-in adapters hand over parsed
 * outputs (one plain walk confirms it); a plugin adapter's draft gets the schema's defaults, and
 * one that is not an AgentOutput at all becomes an `invalid_output` failure of its trial instead
 * of a crash of the run.
 */
export function checkedAdapterOutput(value: unknown, latency: number): AgentOutput {
  if (exactOutput?.(value) === true) return value as AgentOutput;
  const parsed = AgentOutputSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  return failedOutput('invalid_output', `the adapter returned an invalid AgentOutput: ${issues.join('; ')}`, {
    latency,
  });
}

export function normalizeAgentResult(
  value: unknown,
  latency: number,
  metadata: Record<string, unknown> = {},
): AgentOutput {
  const data = toJsonData(value);
  if (!data.ok) return failedOutput(data.kind, data.reason, { latency, metadata });
  const result = data.value;
  if (isRecord(result) && 'output' in result) {
    const own = isRecord(result.metadata) ? result.metadata : {};
    const draft = { latency, ...result, output: asOutput(result.output), metadata: { ...metadata, ...own } };
    const parsed = AgentOutputSchema.safeParse(draft);
    if (parsed.success) return parsed.data;
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    return failedOutput('invalid_output', `the returned AgentOutput is invalid: ${issues.join('; ')}`, {
      latency,
      metadata,
    });
  }
  return plainOutput(jsonOutput(result), latency, metadata);
}

/**
 * The AgentOutput of a plain JSON result, with the schema's defaults, built without a parse:
 * `jsonOutput` already gives a valid `output`, and this is every trial of a harness that returns
 * text or a plain JSON response (a zod parse here was ~15% of the runner's own time per trial).
 * Keys in schema order; a test holds it equal to `AgentOutputSchema.parse`.
 */
export function plainOutput(
  json: Pick<AgentOutput, 'output' | 'structured'>,
  latency: number,
  metadata: Record<string, unknown>,
): AgentOutput {
  return {
    output: json.output,
    ...('structured' in json ? { structured: json.structured } : {}),
    latency: Math.max(0, latency),
    tool_calls: [],
    usage: { tokens_in: 0, tokens_out: 0, cached_tokens: 0, cost_usd: null },
    metadata: { ...metadata },
  };
}

/**
 * A JSON value as `output` (+ `structured` when the output had to be turned into text): strings,
 * objects, arrays and null as they are; numbers and booleans as their JSON text.
 */
export function jsonOutput(value: unknown): Pick<AgentOutput, 'output' | 'structured'> {
  const output = asOutput(value);
  return output === value ? { output } : { output, structured: value };
}

function asOutput(value: unknown): AgentOutput['output'] {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || Array.isArray(value) || isRecord(value)) return value;
  return JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
