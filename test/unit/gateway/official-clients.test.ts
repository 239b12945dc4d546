import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelScriptSchema } from '../../../src/formats/model-script.ts';
import type { GatewayCall } from '../../../src/gateway/call-record.ts';
import type { GatewayRoute } from '../../../src/gateway/routes.ts';
import { Gateway } from '../../../src/gateway/server.ts';
import { DEFAULT_PRICES } from '../../../src/instrument/pricing.ts';

// Wire compatibility with the official clients, each API streamed and as JSON, through their own
// stream helpers (which rebuild the message from the events and reject malformed ones): first
// against the scripted gateway, then through a second gateway forwarding to it, as a harness
// pointed at HarnessEval in front of a real provider sees it.
const script = ModelScriptSchema.parse({
  name: 'official-clients',
  turns: [
    {
      text: 'Reading it.',
      tool_calls: [{ name: 'read_file', input: { path: 'src/a.ts' } }],
      usage: { input_tokens: 120, output_tokens: 30, cache_read_tokens: 40, cache_write_tokens: 10 },
    },
    {
      text: 'Done: the bug is fixed.',
      usage: { input_tokens: 200, output_tokens: 12, reasoning_tokens: 4 },
    },
    { turn: 3, error: { status: 529, type: 'overloaded_error', message: 'busy now' } },
  ],
});
const tools = {
  anthropic: [{ name: 'read_file', input_schema: { type: 'object' as const } }],
  chat: [{ type: 'function' as const, function: { name: 'read_file', parameters: { type: 'object' } } }],
  responses: [
    { type: 'function' as const, name: 'read_file', parameters: { type: 'object' }, strict: false },
  ],
};

let provider: Gateway;
const forwarders: Gateway[] = [];
beforeAll(async () => {
  provider = await Gateway.start({ upstream: { kind: 'script', script }, prices: DEFAULT_PRICES });
});
afterAll(async () => {
  await Promise.all(forwarders.map((g) => g.close()));
  await provider.close();
});

/**
 * A route on the gateway under test: the scripted one, or a gateway forwarding to a fresh route of
 * it (each test's conversation starts at turn 1) with that route's key as the provider key.
 */
async function open(mode: 'script' | 'forward'): Promise<{ route: GatewayRoute; gateway: Gateway }> {
  if (mode === 'script') return { route: provider.openRoute(), gateway: provider };
  const upstream = provider.openRoute();
  const gateway = await Gateway.start({
    upstream: {
      kind: 'forward',
      target: { baseUrl: new URL(upstream.baseUrl), apiKey: upstream.key, label: 'provider' },
    },
    prices: DEFAULT_PRICES,
  });
  forwarders.push(gateway);
  return { route: gateway.openRoute(), gateway };
}

const clients = (route: GatewayRoute) => {
  const env = route.env();
  return {
    anthropic: new Anthropic({
      baseURL: env.ANTHROPIC_BASE_URL,
      apiKey: env.ANTHROPIC_API_KEY,
      maxRetries: 0,
    }),
    openai: new OpenAI({ baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, maxRetries: 0 }),
  };
};

const figures = (calls: readonly GatewayCall[]) =>
  calls.map((c) => [c.api, c.stream, c.status, c.stop_reason, c.usage, c.tool_calls.map((t) => t.name)]);

const USAGE_1 = {
  input_tokens: 120,
  output_tokens: 30,
  cache_read_tokens: 40,
  cache_write_tokens: 10,
  reasoning_tokens: 0,
};
/**
 * The first call as an OpenAI API carries it: its wire has no cache-write count (written tokens
 * are plain input), so a forwarded call records them as input; a scripted one knows the script's.
 */
const openaiUsage1 = (mode: 'script' | 'forward') =>
  mode === 'script' ? USAGE_1 : { ...USAGE_1, input_tokens: 130, cache_write_tokens: 0 };
const USAGE_2 = {
  input_tokens: 200,
  output_tokens: 12,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 4,
};

/** Anthropic's wire has no reasoning-token count: a forwarded call records none. */
const anthropicUsage2 = (mode: 'script' | 'forward') =>
  mode === 'script' ? USAGE_2 : { ...USAGE_2, reasoning_tokens: 0 };

describe.each(['script', 'forward'] as const)('the official clients against the gateway (%s)', (mode) => {
  it('@anthropic-ai/sdk: messages.stream() with a tool call, create() as JSON, an API error', async () => {
    const { route, gateway } = await open(mode);
    const { anthropic } = clients(route);
    const texts: string[] = [];
    const stream = anthropic.messages
      .stream({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        tools: tools.anthropic,
        messages: [{ role: 'user', content: 'fix it' }],
      })
      .on('text', (delta) => texts.push(delta));
    const first = await stream.finalMessage();
    expect(texts.join('')).toBe('Reading it.');
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'Reading it.' }),
      { type: 'tool_use', id: expect.any(String), name: 'read_file', input: { path: 'src/a.ts' } },
    ]);
    expect(first.usage).toMatchObject({
      input_tokens: 120,
      output_tokens: 30,
      cache_read_input_tokens: 40,
      cache_creation_input_tokens: 10,
    });
    const second = await anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'fix it' }],
    });
    expect(second.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'Done: the bug is fixed.' }),
    ]);
    expect(second.usage).toMatchObject({ input_tokens: 200, output_tokens: 12 });
    const failed = anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'again' }],
    });
    await expect(failed).rejects.toBeInstanceOf(Anthropic.APIError);
    await expect(failed).rejects.toMatchObject({
      status: 529,
      error: { type: 'error', error: { type: 'overloaded_error', message: 'busy now' } },
    });
    const calls = await gateway.closeRoute(route);
    expect(figures(calls)).toEqual([
      ['anthropic-messages', true, 200, 'tool_use', USAGE_1, ['read_file']],
      ['anthropic-messages', false, 200, 'end_turn', anthropicUsage2(mode), []],
      ['anthropic-messages', false, 529, undefined, expect.any(Object), []],
    ]);
    expect(calls[0]?.response_id).toBe(first.id);
    expect(calls[0]?.ttft_seconds).toBeGreaterThanOrEqual(0);
    expect(calls[0]?.cost_usd).toBeCloseTo((120 * 3 + 40 * 0.3 + 10 * 3.75 + 30 * 15) / 1e6, 12);
  });

  it('openai: chat.completions.stream() with a tool call, create() as JSON, an API error', async () => {
    const { route, gateway } = await open(mode);
    const { openai } = clients(route);
    const stream = openai.chat.completions.stream({
      model: 'gpt-4.1',
      tools: tools.chat,
      messages: [{ role: 'user', content: 'fix it' }],
      stream_options: { include_usage: true },
    });
    const first = await stream.finalChatCompletion();
    const message = first.choices[0]?.message;
    expect(message?.content).toBe('Reading it.');
    expect(message?.tool_calls?.map((t) => (t.type === 'function' ? t.function : t))).toEqual([
      expect.objectContaining({ name: 'read_file', arguments: '{"path":"src/a.ts"}' }),
    ]);
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    // OpenAI counts cached and cache-written tokens inside prompt_tokens.
    expect(first.usage).toMatchObject({
      prompt_tokens: 170,
      completion_tokens: 30,
      prompt_tokens_details: { cached_tokens: 40 },
    });
    const second = await openai.chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'fix it' }],
    });
    expect(second.choices[0]?.message.content).toBe('Done: the bug is fixed.');
    expect(second.usage).toMatchObject({
      prompt_tokens: 200,
      completion_tokens: 12,
      completion_tokens_details: { reasoning_tokens: 4 },
    });
    const failed = openai.chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'x' }],
    });
    await expect(failed).rejects.toBeInstanceOf(OpenAI.APIError);
    await expect(failed).rejects.toMatchObject({ status: 529, message: expect.stringContaining('busy now') });
    const calls = await gateway.closeRoute(route);
    expect(figures(calls)).toEqual([
      ['openai-chat', true, 200, 'tool_calls', openaiUsage1(mode), ['read_file']],
      ['openai-chat', false, 200, 'stop', USAGE_2, []],
      ['openai-chat', false, 529, undefined, expect.any(Object), []],
    ]);
    expect(calls[0]?.response_id).toBe(first.id);
  });

  it('openai: responses.stream() with a function call, create() as JSON, an API error', async () => {
    const { route, gateway } = await open(mode);
    const { openai } = clients(route);
    const deltas: string[] = [];
    const stream = openai.responses
      .stream({ model: 'gpt-4.1', input: 'fix it', tools: tools.responses })
      .on('response.output_text.delta', (event) => deltas.push(event.delta));
    const first = await stream.finalResponse();
    expect(deltas.join('')).toBe('Reading it.');
    expect(first.output_text).toBe('Reading it.');
    expect(first.output.filter((item) => item.type === 'function_call')).toEqual([
      expect.objectContaining({ name: 'read_file', arguments: '{"path":"src/a.ts"}' }),
    ]);
    expect(first.usage).toMatchObject({
      input_tokens: 170,
      output_tokens: 30,
      input_tokens_details: { cached_tokens: 40 },
    });
    const second = await openai.responses.create({ model: 'gpt-4.1', input: 'fix it' });
    expect(second.output_text).toBe('Done: the bug is fixed.');
    expect(second.usage).toMatchObject({ output_tokens_details: { reasoning_tokens: 4 } });
    const failed = openai.responses.create({ model: 'gpt-4.1', input: 'x' });
    await expect(failed).rejects.toBeInstanceOf(OpenAI.APIError);
    await expect(failed).rejects.toMatchObject({ status: 529 });
    const calls = await gateway.closeRoute(route);
    expect(figures(calls)).toEqual([
      ['openai-responses', true, 200, 'tool_calls', openaiUsage1(mode), ['read_file']],
      ['openai-responses', false, 200, 'completed', USAGE_2, []],
      ['openai-responses', false, 529, undefined, expect.any(Object), []],
    ]);
    expect(calls[0]?.response_id).toBe(first.id);
  });
});
