import { openAiErrorBody, readOpenAiUsage } from './openai-chat.ts';
import type { ApiModule, CallObservation, ModelTurn, RequestView, ToolResultView } from './protocol.ts';
import { emptyObservation, ObservedStream } from './protocol.ts';
import { type SseFrame, sseText } from './sse.ts';
import { leadingType } from './sse-skim.ts';
import { contentText, errorText, isRecord, parseArguments, str } from './wire-json.ts';

/** The OpenAI Responses API (`POST /v1/responses`), JSON and streamed (what Codex speaks). */

const RESPONSES_USAGE = {
  input: 'input_tokens',
  output: 'output_tokens',
  inputDetails: 'input_tokens_details',
  outputDetails: 'output_tokens_details',
};

const OUTPUT_ITEMS = new Set(['function_call_output', 'custom_tool_call_output']);
const CALL_ITEMS = new Set(['function_call', 'custom_tool_call']);

function view(body: Record<string, unknown>): RequestView {
  const raw = body['input'];
  const items =
    typeof raw === 'string'
      ? [{ type: 'message', role: 'user', content: raw }]
      : Array.isArray(raw)
        ? raw.filter(isRecord)
        : [];
  const tools = new Map<string, string>();
  for (const tool of Array.isArray(body['tools']) ? body['tools'] : []) {
    if (isRecord(tool) && typeof tool['name'] === 'string')
      tools.set(tool['name'], str(tool['type']) ?? 'function');
  }
  // The trailing run of calls and their outputs is the harness's answer to the last turn.
  let start = items.length;
  while (start > 0) {
    const type = str(items[start - 1]?.['type']);
    if (type === undefined || !(OUTPUT_ITEMS.has(type) || CALL_ITEMS.has(type))) break;
    start--;
  }
  const toolResults: ToolResultView[] = items
    .slice(start)
    .filter((item) => OUTPUT_ITEMS.has(str(item['type']) ?? ''))
    .map((item) => ({
      ...(typeof item['call_id'] === 'string' ? { id: item['call_id'] } : {}),
      content: typeof item['output'] === 'string' ? item['output'] : contentText(item['output']),
      is_error: false,
    }));
  const messages = items.filter((item) => (item['type'] ?? 'message') === 'message');
  const system = [
    str(body['instructions']) ?? '',
    ...messages
      .filter((m) => m['role'] === 'system' || m['role'] === 'developer')
      .map((m) => contentText(m['content'])),
  ];
  return {
    api: 'openai-responses',
    model: str(body['model']) ?? '',
    stream: body['stream'] === true,
    tools,
    system: system.filter((s) => s !== '').join('\n'),
    last_user_text: contentText(messages.filter((m) => m['role'] === 'user').at(-1)?.['content']),
    tool_results: toolResults,
    message_count: items.length,
  };
}

function observeItem(item: unknown, into: CallObservation): void {
  if (!isRecord(item)) return;
  if (item['type'] === 'function_call' && typeof item['name'] === 'string')
    into.tool_calls.push({
      ...(typeof item['call_id'] === 'string' ? { id: item['call_id'] } : {}),
      name: item['name'],
      input: parseArguments(str(item['arguments']) ?? '{}'),
    });
  if (item['type'] === 'custom_tool_call' && typeof item['name'] === 'string')
    into.tool_calls.push({
      ...(typeof item['call_id'] === 'string' ? { id: item['call_id'] } : {}),
      name: item['name'],
      input: item['input'] ?? '',
    });
}

/** A finished response object: model, id, usage, why it stopped, and errors. */
function observeResponse(response: Record<string, unknown>, into: CallObservation): void {
  if (typeof response['model'] === 'string') into.model = response['model'];
  if (typeof response['id'] === 'string') into.response_id = response['id'];
  into.usage_reported =
    readOpenAiUsage(response['usage'], RESPONSES_USAGE, into.usage) || into.usage_reported;
  const incomplete = isRecord(response['incomplete_details'])
    ? str(response['incomplete_details']['reason'])
    : undefined;
  const status = str(response['status']);
  if (incomplete !== undefined) into.stop_reason = incomplete;
  else if (status !== undefined && status !== 'in_progress')
    into.stop_reason = into.tool_calls.length > 0 && status === 'completed' ? 'tool_calls' : status;
  if (isRecord(response['error'])) into.error = errorText(response['error'], ['code']);
}

function observeJson(body: unknown): CallObservation {
  const seen = emptyObservation();
  if (!isRecord(body)) return seen;
  for (const item of Array.isArray(body['output']) ? body['output'] : []) observeItem(item, seen);
  observeResponse(body, seen);
  return seen;
}

/** The events that end a response, carrying its usage and why it stopped. */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);
/** The events whose reading changes what is recorded; every other one is skimmed by its type. */
const READ_EVENTS = new Set(['response.created', 'response.output_item.done', 'error', ...FINAL_EVENTS]);

const isOutput = (type: string) => type.endsWith('.delta') || type === 'response.output_item.added';

class ResponsesStream extends ObservedStream {
  skim(frame: SseFrame): boolean | undefined {
    const type = leadingType(frame);
    return type === undefined || READ_EVENTS.has(type) ? undefined : isOutput(type);
  }

  onData(data: Record<string, unknown>): boolean {
    const type = str(data['type']) ?? '';
    const response = isRecord(data['response']) ? data['response'] : undefined;
    if (type === 'response.created' && response !== undefined) {
      if (typeof response['id'] === 'string') this.seen.response_id = response['id'];
      if (typeof response['model'] === 'string') this.seen.model = response['model'];
      return false;
    }
    if (type === 'response.output_item.done') {
      observeItem(data['item'], this.seen);
      return false;
    }
    if (response !== undefined && FINAL_EVENTS.has(type)) {
      observeResponse(response, this.seen);
      return false;
    }
    if (type === 'error') {
      this.seen.error = errorText(data, ['code']);
      return false;
    }
    return isOutput(type);
  }
}

function wireUsage(turn: ModelTurn) {
  const input = turn.usage.input_tokens + turn.usage.cache_read_tokens + turn.usage.cache_write_tokens;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: turn.usage.cache_read_tokens },
    output_tokens: turn.usage.output_tokens,
    output_tokens_details: { reasoning_tokens: turn.usage.reasoning_tokens },
    total_tokens: input + turn.usage.output_tokens,
  };
}

function outputItems(turn: ModelTurn, request: RequestView, id: string): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (turn.text !== undefined && turn.text !== '')
    items.push({
      id: `msg_${id}`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  turn.tool_calls.forEach((call, i) => {
    const callId = call.id ?? `call_${id}_${i}`;
    // A free-form tool (Codex's apply_patch) takes text; a function tool takes JSON arguments.
    const custom = request.tools.get(call.name) === 'custom' || typeof call.input === 'string';
    items.push(
      custom
        ? {
            id: `ctc_${id}_${i}`,
            type: 'custom_tool_call',
            status: 'completed',
            call_id: callId,
            name: call.name,
            input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
          }
        : {
            id: `fc_${id}_${i}`,
            type: 'function_call',
            status: 'completed',
            call_id: callId,
            name: call.name,
            arguments: JSON.stringify(call.input),
          },
    );
  });
  return items;
}

const isIncomplete = (turn: ModelTurn) =>
  turn.stop_reason === 'max_output_tokens' || turn.stop_reason === 'content_filter';

function responseOf(turn: ModelTurn, request: RequestView, id: string) {
  const incomplete = isIncomplete(turn);
  return {
    id,
    object: 'response',
    created_at: 0,
    model: request.model,
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: turn.stop_reason } : null,
    output: outputItems(turn, request, id),
    usage: wireUsage(turn),
  };
}

function renderEvents(turn: ModelTurn, request: RequestView, ids: { response: string }): string[] {
  const response = responseOf(turn, request, ids.response);
  const { output } = response;
  const incomplete = isIncomplete(turn);
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    sseText({ type, sequence_number: sequence++, ...data }, type);
  const chunks = [
    event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } }),
  ];
  output.forEach((item, index) => {
    chunks.push(
      event('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', ...(item['type'] === 'message' ? { content: [] } : {}) },
      }),
    );
    if (item['type'] === 'message') {
      const text = turn.text ?? '';
      const part = { type: 'output_text', text: '', annotations: [] };
      chunks.push(
        event('response.content_part.added', {
          output_index: index,
          item_id: item['id'],
          content_index: 0,
          part,
        }),
      );
      chunks.push(
        event('response.output_text.delta', {
          output_index: index,
          item_id: item['id'],
          content_index: 0,
          delta: text,
        }),
      );
      chunks.push(
        event('response.output_text.done', {
          output_index: index,
          item_id: item['id'],
          content_index: 0,
          text,
        }),
      );
      chunks.push(
        event('response.content_part.done', {
          output_index: index,
          item_id: item['id'],
          content_index: 0,
          part: { ...part, text },
        }),
      );
    }
    chunks.push(event('response.output_item.done', { output_index: index, item }));
  });
  chunks.push(event(incomplete ? 'response.incomplete' : 'response.completed', { response }));
  return chunks;
}

export const openaiResponses: ApiModule = {
  api: 'openai-responses',
  view,
  observeJson,
  streamObserver: () => new ResponsesStream(),
  renderJson: (turn, request, ids) => responseOf(turn, request, ids.response),
  renderEvents,
  errorBody: openAiErrorBody,
};
