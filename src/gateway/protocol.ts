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

/** The part every API's stream observer shares: the observation it fills in as events pass. */
export abstract class ObservedStream implements StreamObserver {
  protected readonly seen: CallObservation = emptyObservation();
  abstract onData(data: Record<string, unknown>, frame: SseFrame): boolean;
  observation(): CallObservation {
    return this.seen;
  }
}

/** One scripted answer, rendered by each API module in its own wire format. */
export interface ModelTurn {
  readonly text?: string;
  readonly tool_calls: readonly RequestedToolCall[];
  readonly stop_reason?: string;
  readonly usage: TokenCounts;
  readonly reasoning?: string;
}

export interface ApiModule {
  readonly api: ModelApi;
  view(body: Record<string, unknown>): RequestView;
  observeJson(body: unknown): CallObservation;
  streamObserver(): StreamObserver;
  /** A scripted answer as the API's JSON response body. */
  renderJson(turn: ModelTurn, request: RequestView, ids: { readonly response: string }): unknown;
  /** A scripted answer as the API streams it: the wire text of each event, in order. */
  renderEvents(turn: ModelTurn, request: RequestView, ids: { readonly response: string }): string[];
  /** An error body in the API's shape. */
  errorBody(type: string, message: string): unknown;
}
