import type { SseFrame } from './sse.ts';

/** The model APIs the gateway speaks. */
export type ModelApi = 'anthropic-messages' | 'openai-chat' | 'openai-responses';

export const PROVIDER_OF: Record<ModelApi, 'anthropic' | 'openai'> = {
  'anthropic-messages': 'anthropic',
  'openai-chat': 'openai',
  'openai-responses': 'openai',
};

/**
 * Token counts of one call in one convention for every API: `input_tokens` are the prompt tokens
 * neither read from nor written to a cache (Anthropic's `input_tokens`; OpenAI's minus cached).
 * `reasoning_tokens` are part of `output_tokens`.
 */
export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
}

export function zeroTokens(): TokenCounts {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
  };
}

/** A tool call the model asked for: JSON arguments, or the text of a free-form (custom) tool. */
export interface RequestedToolCall {
  readonly id?: string;
  readonly name: string;
  readonly input: unknown;
}

/** What the gateway read from one response (JSON or a stream). */
export interface CallObservation {
  model?: string;
  response_id?: string;
  usage: TokenCounts;
  /** Whether the response reported usage at all (a stream cut short may not). */
  usage_reported: boolean;
  stop_reason?: string;
  tool_calls: RequestedToolCall[];
  error?: string;
}

export function emptyObservation(): CallObservation {
  return { usage: zeroTokens(), usage_reported: false, tool_calls: [] };
}

/** A tool result the harness sent back to the model in the latest turn. */
export interface ToolResultView {
  readonly id?: string;
  readonly content: string;
  readonly is_error: boolean;
}

/** What a request asks for, in the same shape for every API (scripts match on it). */
export interface RequestView {
  readonly api: ModelApi;
  readonly model: string;
  readonly stream: boolean;
  /** Tool name -> its type (`function`, `custom`, Anthropic's tool type or `tool`). */
  readonly tools: ReadonlyMap<string, string>;
  readonly system: string;
  /** The text of the last user message (tool results excluded). */
  readonly last_user_text: string;
  /** Tool results in the trailing user turn. */
  readonly tool_results: readonly ToolResultView[];
  readonly message_count: number;
  /** Chat Completions: the client asked for the usage chunk (`stream_options.include_usage`). */
  readonly include_usage?: boolean;
}

/**
 * Reads a response stream event by event; `observation()` is what it saw so far. Most events of a
 * stream are text deltas that change no recorded figure: `skim` tells them from their bytes, so
 * they are never decoded.
 */
export interface StreamObserver {
  /**
   * From an event's bytes alone: true (model output) or false (not) for an event whose reading
   * would change nothing the observer records; undefined when it must be parsed (`onData`).
   */
  skim?(frame: SseFrame): boolean | undefined;
  /** An event whose data is a JSON object; true when it carries model output (the first marks TTFT). */
  onData(data: Record<string, unknown>, frame: SseFrame): boolean;
  observation(): CallObservation;
}

/** One scripted answer, rendered by each API module in its own wire format. */
export interface ModelTurn {
  readonly text?: string;
  readonly tool_calls: readonly RequestedToolCall[];
  readonly stop_reason?: string;
  readonly usage: TokenCounts;
  readonly reasoning?: string;
}

/** The body of a rendered answer: one JSON document, or SSE chunks in order. */
export type RenderedAnswer =
  | { readonly kind: 'json'; readonly body: unknown }
  | { readonly kind: 'sse'; readonly chunks: readonly string[] };

export interface ApiModule {
  readonly api: ModelApi;
  view(body: Record<string, unknown>): RequestView;
  observeJson(body: unknown): CallObservation;
  streamObserver(): StreamObserver;
  render(turn: ModelTurn, request: RequestView, ids: { readonly response: string }): RenderedAnswer;
  /** An error body in the API's shape. */
  errorBody(type: string, message: string): unknown;
}

/** `name: message` of an API's error object, its name the first of `names` it has (`error` if none). */
export function errorText(error: unknown, names: readonly ('type' | 'code')[]): string {
  const e = isRecord(error) ? error : {};
  let name: string | undefined;
  for (const key of names) name ??= str(e[key]);
  return `${name ?? 'error'}: ${str(e['message']) ?? ''}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The text of message content in any of the APIs' shapes (a string or a list of parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isRecord(part)) return '';
      if (typeof part['text'] === 'string') return part['text'];
      if (part['type'] === 'tool_result') return contentText(part['content']);
      return '';
    })
    .filter((t) => t !== '')
    .join('\n');
}

/** Parses tool arguments sent as a JSON string; the raw text when it is not JSON. */
export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
