import type {
  ApiModule,
  CallObservation,
  ModelTurn,
  RequestView,
  TokenCounts,
  ToolResultView,
} from './protocol.ts';
import { emptyObservation, ObservedStream } from './protocol.ts';
import { type SseFrame, sseText } from './sse.ts';
import { bytesAt, leadingType } from './sse-skim.ts';
import { contentText, errorText, isRecord, num, parseArguments, str } from './wire-json.ts';

/** The Anthropic Messages API (`POST /v1/messages`), JSON and streamed. */

function readUsage(usage: unknown, into: TokenCounts): boolean {
  if (!isRecord(usage)) return false;
  // A message_delta may repeat only some fields: absent ones keep what message_start said.
  if ('input_tokens' in usage) into.input_tokens = num(usage['input_tokens']);
  if ('output_tokens' in usage) into.output_tokens = num(usage['output_tokens']);
  if ('cache_read_input_tokens' in usage) into.cache_read_tokens = num(usage['cache_read_input_tokens']);
  if ('cache_creation_input_tokens' in usage)
    into.cache_write_tokens = num(usage['cache_creation_input_tokens']);
  return true;
}

function view(body: Record<string, unknown>): RequestView {
  const messages = Array.isArray(body['messages']) ? body['messages'].filter(isRecord) : [];
  const tools = new Map<string, string>();
  for (const tool of Array.isArray(body['tools']) ? body['tools'] : []) {
    if (isRecord(tool) && typeof tool['name'] === 'string')
      tools.set(tool['name'], str(tool['type']) ?? 'tool');
  }
  const users = messages.filter((m) => m['role'] === 'user');
  const lastUser = users.at(-1);
  const parts = Array.isArray(lastUser?.['content']) ? lastUser['content'].filter(isRecord) : [];
  const trailing = messages.at(-1)?.['role'] === 'user' ? parts : [];
  const toolResults: ToolResultView[] = trailing
    .filter((p) => p['type'] === 'tool_result')
    .map((p) => ({
      ...(typeof p['tool_use_id'] === 'string' ? { id: p['tool_use_id'] } : {}),
      content: contentText(p['content']),
      is_error: p['is_error'] === true,
    }));
  const lastText =
    typeof lastUser?.['content'] === 'string'
      ? lastUser['content']
      : contentText(parts.filter((p) => p['type'] === 'text'));
  return {
    api: 'anthropic-messages',
    model: str(body['model']) ?? '',
    stream: body['stream'] === true,
    tools,
    system: contentText(body['system']),
    last_user_text: lastText,
    tool_results: toolResults,
    message_count: messages.length,
  };
}

function observeContent(blocks: unknown, into: CallObservation): void {
  for (const block of Array.isArray(blocks) ? blocks : []) {
    if (!isRecord(block)) continue;
    if (block['type'] === 'tool_use' && typeof block['name'] === 'string')
      into.tool_calls.push({
        ...(typeof block['id'] === 'string' ? { id: block['id'] } : {}),
        name: block['name'],
        input: block['input'] ?? {},
      });
  }
}

function observeJson(body: unknown): CallObservation {
  const seen = emptyObservation();
  if (!isRecord(body)) return seen;
  if (body['type'] === 'error' && isRecord(body['error'])) {
    seen.error = errorText(body['error'], ['type']);
    return seen;
  }
  if (typeof body['model'] === 'string') seen.model = body['model'];
  if (typeof body['id'] === 'string') seen.response_id = body['id'];
  if (typeof body['stop_reason'] === 'string') seen.stop_reason = body['stop_reason'];
  seen.usage_reported = readUsage(body['usage'], seen.usage);
  observeContent(body['content'], seen);
  return seen;
}

const BLOCK_START_HEAD = Buffer.from('{"type":"content_block_start","index":');
/** After the index: a block that records nothing when it starts (its text comes in deltas). */
const QUIET_BLOCKS = [',"content_block":{"type":"text"', ',"content_block":{"type":"thinking"'].map((b) =>
  Buffer.from(b),
);

/** A text or thinking block's start, as the API writes it: output that changes no recorded figure. */
function quietBlockStart(frame: SseFrame): boolean {
  const { buf, dataStart, dataEnd } = frame;
  if (!bytesAt(buf, dataStart, BLOCK_START_HEAD)) return false;
  let at = dataStart + BLOCK_START_HEAD.length;
  while (at < dataEnd && (buf[at] ?? 0) >= 48 && (buf[at] ?? 0) <= 57) at++;
  return at > dataStart + BLOCK_START_HEAD.length && QUIET_BLOCKS.some((b) => bytesAt(buf, at, b));
}

class AnthropicStream extends ObservedStream {
  /** Tool-use blocks by index, with their streamed JSON input. */
  private readonly blocks = new Map<number, { id?: string; name: string; json: string; input: unknown }>();

  skim(frame: SseFrame): boolean | undefined {
    switch (leadingType(frame)) {
      case undefined:
      case 'content_block_start':
        return quietBlockStart(frame) ? true : undefined;
      case 'message_start':
      case 'message_delta':
      case 'error':
        return undefined;
      // Text and thinking deltas are output and change nothing recorded; tool input is read.
      case 'content_block_delta':
        return this.blocks.size === 0 ? true : undefined;
      case 'content_block_stop':
        return this.blocks.size === 0 ? false : undefined;
      default:
        return false;
    }
  }

  onData(data: Record<string, unknown>): boolean {
    const seen = this.seen;
    switch (data['type']) {
      case 'message_start': {
        const message = isRecord(data['message']) ? data['message'] : {};
        if (typeof message['id'] === 'string') seen.response_id = message['id'];
        if (typeof message['model'] === 'string') seen.model = message['model'];
        seen.usage_reported = readUsage(message['usage'], seen.usage) || seen.usage_reported;
        return false;
      }
      case 'content_block_start': {
        const block = isRecord(data['content_block']) ? data['content_block'] : {};
        if (block['type'] === 'tool_use' && typeof block['name'] === 'string')
          this.blocks.set(num(data['index']), {
            ...(typeof block['id'] === 'string' ? { id: block['id'] } : {}),
            name: block['name'],
            json: '',
            input: block['input'] ?? {},
          });
        return true;
      }
      case 'content_block_delta': {
        const delta = isRecord(data['delta']) ? data['delta'] : {};
        if (delta['type'] === 'input_json_delta') {
          const block = this.blocks.get(num(data['index']));
          if (block !== undefined) block.json += str(delta['partial_json']) ?? '';
        }
        return true;
      }
      case 'content_block_stop': {
        const index = num(data['index']);
        const block = this.blocks.get(index);
        if (block !== undefined) {
          this.blocks.delete(index);
          const input = block.json === '' ? block.input : parseArguments(block.json);
          seen.tool_calls.push({
            ...(block.id === undefined ? {} : { id: block.id }),
            name: block.name,
            input,
          });
        }
        return false;
      }
      case 'message_delta': {
        const delta = isRecord(data['delta']) ? data['delta'] : {};
        if (typeof delta['stop_reason'] === 'string') seen.stop_reason = delta['stop_reason'];
        seen.usage_reported = readUsage(data['usage'], seen.usage) || seen.usage_reported;
        return false;
      }
      case 'error':
        seen.error = errorText(data['error'], ['type']);
        return false;
      default:
        return false;
    }
  }
}

function wireUsage(turn: ModelTurn) {
  return {
    input_tokens: turn.usage.input_tokens,
    output_tokens: turn.usage.output_tokens,
    cache_read_input_tokens: turn.usage.cache_read_tokens,
    cache_creation_input_tokens: turn.usage.cache_write_tokens,
  };
}

function stopReason(turn: ModelTurn): string {
  return turn.stop_reason ?? (turn.tool_calls.length > 0 ? 'tool_use' : 'end_turn');
}

function contentBlocks(turn: ModelTurn, id: string) {
  const blocks: Record<string, unknown>[] = [];
  if (turn.text !== undefined && turn.text !== '') blocks.push({ type: 'text', text: turn.text });
  turn.tool_calls.forEach((call, i) => {
    const input = isRecord(call.input) ? call.input : { input: call.input };
    blocks.push({ type: 'tool_use', id: call.id ?? `toolu_${id}_${i}`, name: call.name, input });
  });
  return blocks;
}

function message(turn: ModelTurn, request: RequestView, id: string) {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content: contentBlocks(turn, id),
    stop_reason: stopReason(turn),
    stop_sequence: null,
    usage: wireUsage(turn),
  };
}

function renderEvents(turn: ModelTurn, request: RequestView, ids: { response: string }): string[] {
  const body = message(turn, request, ids.response);
  const event = (type: string, data: Record<string, unknown>) => sseText({ type, ...data }, type);
  // As the real API streams: message_start holds the input usage and an output count of 1; the
  // final output count comes in message_delta.
  const chunks = [
    event('message_start', {
      message: {
        ...body,
        content: [],
        stop_reason: null,
        usage: { ...wireUsage(turn), output_tokens: 1 },
      },
    }),
  ];
  body.content.forEach((block, index) => {
    if (block['type'] === 'text') {
      chunks.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      chunks.push(
        event('content_block_delta', { index, delta: { type: 'text_delta', text: block['text'] } }),
      );
    } else {
      chunks.push(event('content_block_start', { index, content_block: { ...block, input: {} } }));
      const partial = JSON.stringify(block['input']);
      chunks.push(
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } }),
      );
    }
    chunks.push(event('content_block_stop', { index }));
  });
  chunks.push(
    event('message_delta', {
      delta: { stop_reason: stopReason(turn), stop_sequence: null },
      usage: { output_tokens: turn.usage.output_tokens },
    }),
  );
  chunks.push(event('message_stop', {}));
  return chunks;
}

export const anthropicMessages: ApiModule = {
  api: 'anthropic-messages',
  view,
  observeJson,
  streamObserver: () => new AnthropicStream(),
  renderJson: (turn, request, ids) => message(turn, request, ids.response),
  renderEvents,
  errorBody: (type, text) => ({ type: 'error', error: { type, message: text } }),
};
