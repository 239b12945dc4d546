import type { ApiModule, CallObservation, ModelTurn, RequestView, TokenCounts } from './protocol.ts';
import { emptyObservation, ObservedStream } from './protocol.ts';
import { type SseFrame, sseText } from './sse.ts';
import { bytesAt, stringThenTail } from './sse-skim.ts';
import { contentText, errorText, isRecord, num, parseArguments, str } from './wire-json.ts';

/** The OpenAI Chat Completions API (`POST /v1/chat/completions`), JSON and streamed. */

/** OpenAI counts cached tokens inside `prompt_tokens`; ours keeps them apart. */
export function readOpenAiUsage(
  usage: unknown,
  names: { input: string; output: string; inputDetails: string; outputDetails: string },
  into: TokenCounts,
): boolean {
  if (!isRecord(usage)) return false;
  const inputDetails = isRecord(usage[names.inputDetails]) ? usage[names.inputDetails] : {};
  const outputDetails = isRecord(usage[names.outputDetails]) ? usage[names.outputDetails] : {};
  const cached = num((inputDetails as Record<string, unknown>)['cached_tokens']);
  into.cache_read_tokens = cached;
  into.input_tokens = Math.max(0, num(usage[names.input]) - cached);
  into.output_tokens = num(usage[names.output]);
  into.reasoning_tokens = num((outputDetails as Record<string, unknown>)['reasoning_tokens']);
  return true;
}

const CHAT_USAGE = {
  input: 'prompt_tokens',
  output: 'completion_tokens',
  inputDetails: 'prompt_tokens_details',
  outputDetails: 'completion_tokens_details',
};

function view(body: Record<string, unknown>): RequestView {
  const messages = Array.isArray(body['messages']) ? body['messages'].filter(isRecord) : [];
  const tools = new Map<string, string>();
  for (const tool of Array.isArray(body['tools']) ? body['tools'] : []) {
    const fn = isRecord(tool) && isRecord(tool['function']) ? tool['function'] : undefined;
    if (fn !== undefined && typeof fn['name'] === 'string')
      tools.set(fn['name'], str(tool['type']) ?? 'function');
  }
  let trailing = messages.length;
  while (trailing > 0 && messages[trailing - 1]?.['role'] === 'tool') trailing--;
  return {
    api: 'openai-chat',
    model: str(body['model']) ?? '',
    stream: body['stream'] === true,
    tools,
    system: messages
      .filter((m) => m['role'] === 'system' || m['role'] === 'developer')
      .map((m) => contentText(m['content']))
      .join('\n'),
    last_user_text: contentText(messages.filter((m) => m['role'] === 'user').at(-1)?.['content']),
    tool_results: messages.slice(trailing).map((m) => ({
      ...(typeof m['tool_call_id'] === 'string' ? { id: m['tool_call_id'] } : {}),
      content: contentText(m['content']),
      is_error: false,
    })),
    message_count: messages.length,
    include_usage: isRecord(body['stream_options']) && body['stream_options']['include_usage'] === true,
  };
}

function observeJson(body: unknown): CallObservation {
  const seen = emptyObservation();
  if (!isRecord(body)) return seen;
  if (isRecord(body['error'])) {
    seen.error = errorText(body['error'], ['type', 'code']);
    return seen;
  }
  if (typeof body['model'] === 'string') seen.model = body['model'];
  if (typeof body['id'] === 'string') seen.response_id = body['id'];
  seen.usage_reported = readOpenAiUsage(body['usage'], CHAT_USAGE, seen.usage);
  const choice = Array.isArray(body['choices']) && isRecord(body['choices'][0]) ? body['choices'][0] : {};
  if (typeof choice['finish_reason'] === 'string') seen.stop_reason = choice['finish_reason'];
  const message = isRecord(choice['message']) ? choice['message'] : {};
  for (const call of Array.isArray(message['tool_calls']) ? message['tool_calls'] : []) {
    const fn = isRecord(call) && isRecord(call['function']) ? call['function'] : undefined;
    if (fn === undefined || typeof fn['name'] !== 'string') continue;
    seen.tool_calls.push({
      ...(typeof call['id'] === 'string' ? { id: call['id'] } : {}),
      name: fn['name'],
      input: parseArguments(str(fn['arguments']) ?? '{}'),
    });
  }
  return seen;
}

const CHOICES = Buffer.from('"choices":[');
const CONTENT_CHOICE = /^\{"index":\d+,"delta":\{"content":"/;
/** What may follow a content delta's text, as OpenAI and this gateway's scripts write a chunk. */
const CONTENT_TAILS = [
  '"},"logprobs":null,"finish_reason":null}]}',
  '"},"finish_reason":null,"logprobs":null}]}',
  '"},"finish_reason":null}]}',
  '"},"logprobs":null,"finish_reason":null}],"usage":null}',
  '"},"finish_reason":null,"logprobs":null}],"usage":null}',
  '"},"finish_reason":null}],"usage":null}',
].map((tail) => Buffer.from(tail));

class ChatStream extends ObservedStream {
  private readonly calls = new Map<number, { id?: string; name: string; args: string }>();
  /**
   * The bytes before `"choices":[` of the last chunk parsed (id, model, created…). A chunk that
   * repeats them and carries one text delta changes nothing recorded but the time to first token.
   */
  private head: Buffer | undefined;

  skim(frame: SseFrame): boolean | undefined {
    const head = this.head;
    const { buf, dataStart } = frame;
    if (head === undefined || frame.dataLines !== 1 || !bytesAt(buf, dataStart, head)) return undefined;
    const choice = dataStart + head.length;
    const opening = CONTENT_CHOICE.exec(buf.toString('latin1', choice, Math.min(choice + 48, frame.dataEnd)));
    if (opening === null) return undefined;
    const text = choice + opening[0].length;
    const close = stringThenTail(frame, text, CONTENT_TAILS);
    if (close === -1) return undefined;
    // An empty text is no output (as a parsed chunk would say).
    return close > text;
  }

  onData(data: Record<string, unknown>, frame: SseFrame): boolean {
    const seen = this.seen;
    if (isRecord(data['error'])) {
      seen.error = errorText(data['error'], ['type']);
      return false;
    }
    this.rememberHead(frame);
    if (typeof data['id'] === 'string') seen.response_id = data['id'];
    if (typeof data['model'] === 'string') seen.model = data['model'];
    if (isRecord(data['usage'])) seen.usage_reported = readOpenAiUsage(data['usage'], CHAT_USAGE, seen.usage);
    let output = false;
    for (const choice of Array.isArray(data['choices']) ? data['choices'] : []) {
      if (!isRecord(choice)) continue;
      if (typeof choice['finish_reason'] === 'string') seen.stop_reason = choice['finish_reason'];
      const delta = isRecord(choice['delta']) ? choice['delta'] : {};
      if (typeof delta['content'] === 'string' && delta['content'] !== '') output = true;
      for (const part of Array.isArray(delta['tool_calls']) ? delta['tool_calls'] : []) {
        if (!isRecord(part)) continue;
        output = true;
        const index = num(part['index']);
        const fn = isRecord(part['function']) ? part['function'] : {};
        const call = this.calls.get(index) ?? { name: '', args: '' };
        if (typeof part['id'] === 'string') call.id = part['id'];
        if (typeof fn['name'] === 'string') call.name += fn['name'];
        call.args += str(fn['arguments']) ?? '';
        this.calls.set(index, call);
      }
    }
    return output;
  }

  private rememberHead(frame: SseFrame): void {
    if (frame.dataLines !== 1) return;
    const { buf, dataStart, dataEnd } = frame;
    const at = buf.indexOf(CHOICES, dataStart);
    if (at === -1 || at + CHOICES.length > dataEnd) return;
    const length = at + CHOICES.length - dataStart;
    if (this.head?.length === length && bytesAt(buf, dataStart, this.head)) return;
    this.head = Buffer.from(buf.subarray(dataStart, dataStart + length));
  }

  override observation(): CallObservation {
    const calls = [...this.calls.entries()].sort(([a], [b]) => a - b);
    return {
      ...this.seen,
      tool_calls: calls.map(([, c]) => ({
        ...(c.id === undefined ? {} : { id: c.id }),
        name: c.name,
        input: parseArguments(c.args === '' ? '{}' : c.args),
      })),
    };
  }
}

function wireUsage(turn: ModelTurn) {
  const prompt = turn.usage.input_tokens + turn.usage.cache_read_tokens + turn.usage.cache_write_tokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: turn.usage.output_tokens,
    total_tokens: prompt + turn.usage.output_tokens,
    prompt_tokens_details: { cached_tokens: turn.usage.cache_read_tokens },
    completion_tokens_details: { reasoning_tokens: turn.usage.reasoning_tokens },
  };
}

function toolCallsOf(turn: ModelTurn, id: string) {
  return turn.tool_calls.map((call, i) => ({
    id: call.id ?? `call_${id}_${i}`,
    type: 'function',
    function: {
      name: call.name,
      arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
    },
  }));
}

const finishOf = (turn: ModelTurn) =>
  turn.stop_reason ?? (turn.tool_calls.length > 0 ? 'tool_calls' : 'stop');

function renderJson(turn: ModelTurn, request: RequestView, ids: { response: string }): unknown {
  const toolCalls = toolCallsOf(turn, ids.response);
  const message = {
    role: 'assistant',
    content: turn.text ?? null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return {
    id: ids.response,
    created: 0,
    model: request.model,
    object: 'chat.completion',
    choices: [{ index: 0, message, finish_reason: finishOf(turn), logprobs: null }],
    usage: wireUsage(turn),
  };
}

function renderEvents(turn: ModelTurn, request: RequestView, ids: { response: string }): string[] {
  const base = { id: ids.response, created: 0, model: request.model, object: 'chat.completion.chunk' };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
    sseText({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] });
  const chunks = [chunk({ role: 'assistant', content: '' }, null)];
  if (turn.text !== undefined && turn.text !== '') chunks.push(chunk({ content: turn.text }, null));
  toolCallsOf(turn, ids.response).forEach((call, index) => {
    chunks.push(chunk({ tool_calls: [{ index, ...call }] }, null));
  });
  chunks.push(chunk({}, finishOf(turn)));
  // Like the real API, the usage chunk (with no choices) only for a client that asked for it.
  if (request.include_usage === true) chunks.push(sseText({ ...base, choices: [], usage: wireUsage(turn) }));
  chunks.push(sseText('[DONE]'));
  return chunks;
}

/** The error body of both OpenAI APIs. */
export function openAiErrorBody(type: string, message: string): unknown {
  return { error: { type, message, code: type } };
}

export const openaiChat: ApiModule = {
  api: 'openai-chat',
  view,
  observeJson,
  streamObserver: () => new ChatStream(),
  renderJson,
  renderEvents,
  errorBody: openAiErrorBody,
};
