import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicMessages } from '../../../src/gateway/anthropic.ts';
import { openaiChat } from '../../../src/gateway/openai-chat.ts';
import { openaiResponses } from '../../../src/gateway/openai-responses.ts';
import type { ApiModule, ModelTurn } from '../../../src/gateway/protocol.ts';
import { StreamReader } from '../../../src/gateway/stream-reader.ts';

/** Reads `bytes` cut at `cuts`; skimming off parses every event, as the gateway did before skims. */
function read(api: ApiModule, bytes: Buffer, cuts: readonly number[], skim = true) {
  const observer = api.streamObserver();
  if (!skim) Object.assign(observer, { skim: undefined });
  const reader = new StreamReader(observer);
  const points = [...new Set([0, ...cuts, bytes.length])].sort((a, b) => a - b);
  const outputs: boolean[] = [];
  for (let i = 1; i < points.length; i++) outputs.push(reader.push(bytes.subarray(points[i - 1], points[i])));
  outputs.push(reader.end());
  return { observation: reader.observation(), firstOutput: outputs.indexOf(true) };
}

/** Every event in its own chunk: which events are model output. */
function outputsPerEvent(api: ApiModule, events: readonly string[], skim: boolean): boolean[] {
  const observer = api.streamObserver();
  if (!skim) Object.assign(observer, { skim: undefined });
  const reader = new StreamReader(observer);
  return events.map((event) => reader.push(Buffer.from(event)));
}

const usage = {
  input_tokens: 12,
  output_tokens: 7,
  cache_read_tokens: 3,
  cache_write_tokens: 2,
  reasoning_tokens: 1,
};
/** Texts with what could fool a byte check: quotes, backslashes, JSON-looking tails, multi-byte characters. */
const texts = fc.array(
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom('"}]}', '"},"logprobs":null,"finish_reason":null}]}', '\\', '\\"', 'é✓🎉', '\r\n\n'),
  ),
  { minLength: 1, maxLength: 5 },
);
const turns = fc.record({
  texts,
  tool: fc.option(fc.record({ name: fc.constantFrom('Write', 'shell'), arg: fc.string({ maxLength: 8 }) }), {
    nil: undefined,
  }),
});

/** A streamed answer as the API's renderer writes it, its one text delta split into several. */
function stream(api: ApiModule, t: { texts: string[]; tool: { name: string; arg: string } | undefined }) {
  const turn: ModelTurn = {
    text: t.texts.join(''),
    tool_calls: t.tool === undefined ? [] : [{ id: 'call_1', name: t.tool.name, input: { arg: t.tool.arg } }],
    usage,
  };
  const view = api.view({
    model: 'm-1',
    stream: true,
    stream_options: { include_usage: true },
    messages: [],
  });
  const rendered = api.renderEvents(turn, view, { response: 'resp_1' });
  // The one delta of the text becomes one delta per piece, as real APIs stream it.
  const whole = JSON.stringify(turn.text).slice(1, -1);
  return rendered.flatMap((chunk) =>
    whole !== '' &&
    chunk.includes(whole) &&
    !chunk.includes('output_text.done') &&
    !chunk.includes('"completed"')
      ? t.texts.map((piece) => chunk.replace(whole, JSON.stringify(piece).slice(1, -1)))
      : [chunk],
  );
}

describe('StreamReader: skimmed events are read as if every event were parsed', () => {
  for (const api of [anthropicMessages, openaiChat, openaiResponses]) {
    it(`${api.api}: the same observation and first output however the stream is cut`, () => {
      fc.assert(
        fc.property(turns, fc.array(fc.nat(), { maxLength: 10 }), (turn, rawCuts) => {
          const events = stream(api, turn);
          const bytes = Buffer.from(events.join(''));
          const cuts = rawCuts.map((c) => c % (bytes.length + 1));
          expect(read(api, bytes, cuts)).toEqual(read(api, bytes, cuts, false));
          expect(outputsPerEvent(api, events, true)).toEqual(outputsPerEvent(api, events, false));
          expect(read(api, bytes, cuts).observation).toMatchObject({ usage_reported: true });
        }),
        { numRuns: 60 },
      );
    });
  }

  it('openai-chat: a chunk shaped like a text delta that hides a tool call is parsed, not skimmed', () => {
    const head = '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-x","choices":[';
    const events = [
      `data: ${head}{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}{"index":0,"delta":{"content":"hi"},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}{"index":0,"delta":{"content":"a","tool_calls":[{"index":0,"id":"t1","function":{"name":"f","arguments":"{}"}}],"z":"b"},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}\n\n`,
      'data: [DONE]\n\n',
    ];
    const { observation } = read(openaiChat, Buffer.from(events.join('')), []);
    expect(observation).toMatchObject({
      response_id: 'c1',
      model: 'gpt-x',
      stop_reason: 'tool_calls',
      tool_calls: [{ id: 't1', name: 'f', input: {} }],
    });
    expect(outputsPerEvent(openaiChat, events, true)).toEqual([false, true, true, false, false]);
  });

  it('anthropic: thinking, ping and text deltas are output or not as a parse says; tool input is read', () => {
    const ev = (type: string, data: object) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const events = [
      ev('message_start', {
        message: { id: 'msg_1', model: 'claude-x', usage: { input_tokens: 5, output_tokens: 1 } },
      }),
      ev('ping', {}),
      ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'hmm "quoted"' } }),
      ev('content_block_stop', { index: 0 }),
      ev('content_block_start', {
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} },
      }),
      ev('content_block_delta', {
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"command":' },
      }),
      ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '"ls"}' } }),
      ev('content_block_stop', { index: 1 }),
      ev('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }),
      ev('message_stop', {}),
    ];
    expect(outputsPerEvent(anthropicMessages, events, true)).toEqual(
      outputsPerEvent(anthropicMessages, events, false),
    );
    expect(read(anthropicMessages, Buffer.from(events.join('')), [37, 200]).observation).toEqual({
      response_id: 'msg_1',
      model: 'claude-x',
      usage: {
        input_tokens: 5,
        output_tokens: 9,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
      },
      usage_reported: true,
      stop_reason: 'tool_use',
      tool_calls: [{ id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }],
    });
  });

  it('records a stream that ends inside an event as stream_truncated, keeping what it saw', () => {
    const events = stream(anthropicMessages, { texts: ['partial'], tool: undefined });
    const whole = events.join('');
    const cutAt = whole.indexOf('event: message_delta') + 30;
    const { observation } = read(anthropicMessages, Buffer.from(whole.slice(0, cutAt)), [11]);
    expect(observation.error).toBe('stream_truncated: the response stream ended inside an event');
    expect(observation).toMatchObject({
      response_id: 'resp_1',
      usage: { input_tokens: 12, output_tokens: 1 },
    });
    // An event ended by the end of the stream but whole is read, with no error.
    const ended = read(anthropicMessages, Buffer.from(whole.trimEnd()), []).observation;
    expect(ended.error).toBeUndefined();
    expect(ended.stop_reason).toBe('end_turn');
  });
});
