import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelScriptSchema } from '../../../src/formats/model-script.ts';
import { toAgentCall } from '../../../src/gateway/call-record.ts';
import { Gateway } from '../../../src/gateway/server.ts';
import { DEFAULT_PRICES } from '../../../src/instrument/pricing.ts';

const script = ModelScriptSchema.parse({
  name: 'unit',
  usage: { input_tokens: 100, output_tokens: 10 },
  turns: [
    {
      turn: 3,
      text: 'third, by number',
      usage: { input_tokens: 300, output_tokens: 30, cache_read_tokens: 7 },
    },
    { when: { tool_result_contains: 'BOOM' }, text: 'saw the failure' },
    {
      text: 'writing {{workspace}}/a.txt',
      tool_calls: [{ name: 'Write', input: { file_path: '{{workspace}}/a.txt', content: 'hi' } }],
      usage: { input_tokens: 1000, output_tokens: 50, cache_read_tokens: 200, cache_write_tokens: 300 },
    },
    { text: 'plain second' },
  ],
});

let gateway: Gateway;
beforeAll(async () => {
  gateway = await Gateway.start({ upstream: { kind: 'script', script }, prices: DEFAULT_PRICES });
});
afterAll(async () => {
  await gateway.close();
});

const anthropicFor = (env: Record<string, string>) =>
  new Anthropic({ baseURL: env['ANTHROPIC_BASE_URL'], apiKey: env['ANTHROPIC_API_KEY'], maxRetries: 0 });
const openaiFor = (env: Record<string, string>) =>
  new OpenAI({ baseURL: env['OPENAI_BASE_URL'], apiKey: env['OPENAI_API_KEY'], maxRetries: 0 });

describe('the gateway answering from a script', () => {
  it('streams Anthropic messages that the official client reads, and records each call exactly', async () => {
    const route = gateway.openRoute({ vars: { workspace: '/tmp/ws-1' } });
    const client = anthropicFor({ ...route.env() });
    const stream = client.messages.stream({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'start' }],
    });
    const first = await stream.finalMessage();
    expect(first.content).toEqual([
      { type: 'text', text: 'writing /tmp/ws-1/a.txt' },
      expect.objectContaining({
        type: 'tool_use',
        name: 'Write',
        input: { file_path: '/tmp/ws-1/a.txt', content: 'hi' },
      }),
    ]);
    expect(first.stop_reason).toBe('tool_use');
    expect(first.usage).toMatchObject({
      input_tokens: 1000,
      output_tokens: 50,
      cache_read_input_tokens: 200,
      cache_creation_input_tokens: 300,
    });
    const second = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'again' }],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'plain second' }]);
    const third = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'three' }],
    });
    expect(third.content).toEqual([{ type: 'text', text: 'third, by number' }]);

    const calls = await gateway.closeRoute(route);
    expect(calls.map((c) => [c.seq, c.api, c.stream, c.stop_reason, c.model])).toEqual([
      [1, 'anthropic-messages', true, 'tool_use', 'claude-sonnet-4-5'],
      [2, 'anthropic-messages', false, 'end_turn', 'claude-sonnet-4-5'],
      [3, 'anthropic-messages', false, 'end_turn', 'claude-sonnet-4-5'],
    ]);
    expect(calls[0]).toMatchObject({
      provider: 'anthropic',
      upstream: 'script',
      status: 200,
      usage_reported: true,
      usage: { input_tokens: 1000, output_tokens: 50, cache_read_tokens: 200, cache_write_tokens: 300 },
      tool_calls: [{ name: 'Write', input: { file_path: '/tmp/ws-1/a.txt', content: 'hi' } }],
      response_id: first.id,
    });
    // claude-sonnet-4 list prices: 3 in, 15 out, 0.3 cache read, 3.75 cache write (USD / M tokens).
    expect(calls[0]?.cost_usd).toBeCloseTo((1000 * 3 + 200 * 0.3 + 300 * 3.75 + 50 * 15) / 1e6, 12);
    expect(calls[0]?.ttft_seconds).toBeGreaterThanOrEqual(0);
    expect(calls[2]?.usage).toMatchObject({ input_tokens: 300, output_tokens: 30, cache_read_tokens: 7 });
    expect(toAgentCall(calls[0]!)).toMatchObject({
      tokens_in: 1500,
      tokens_out: 50,
      cached_tokens: 200,
      cache_write_tokens: 300,
      provider: 'anthropic',
      metadata: { source: 'gateway', tool_calls_requested: ['Write'], stop_reason: 'tool_use' },
    });
  });

  it('matches a `when` predicate on the tool results of the latest turn', async () => {
    const route = gateway.openRoute({ vars: { workspace: '/w' } });
    const client = anthropicFor({ ...route.env() });
    const answer = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: 'BOOM: exit 1', is_error: true }],
        },
      ],
    });
    expect(answer.content).toEqual([{ type: 'text', text: 'saw the failure' }]);
    await gateway.closeRoute(route);
  });

  it('speaks Chat Completions, streamed (with and without the usage chunk) and as JSON', async () => {
    const route = gateway.openRoute({ vars: { workspace: '/w' } });
    const client = openaiFor({ ...route.env() });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    const stream = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    for await (const chunk of stream) chunks.push(chunk);
    // No usage chunk unless asked: every chunk has a choice.
    expect(chunks.every((c) => c.choices.length === 1)).toBe(true);
    const toolDelta = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(toolDelta[0]?.function?.name).toBe('Write');
    expect(JSON.parse(toolDelta[0]?.function?.arguments ?? '')).toEqual({
      file_path: '/w/a.txt',
      content: 'hi',
    });

    const withUsage = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of withUsage) usage = chunk.usage ?? usage;
    expect(usage).toMatchObject({ prompt_tokens: 100, completion_tokens: 10 });

    const json = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(json.choices[0]?.message.content).toBe('third, by number');
    expect(json.usage).toMatchObject({
      prompt_tokens: 307,
      completion_tokens: 30,
      prompt_tokens_details: { cached_tokens: 7 },
    });

    const calls = await gateway.closeRoute(route);
    expect(calls.map((c) => c.api)).toEqual(['openai-chat', 'openai-chat', 'openai-chat']);
    // The script's usage is recorded even when the stream carried none.
    expect(calls[0]).toMatchObject({
      usage_reported: true,
      usage: { input_tokens: 1000, cache_read_tokens: 200 },
    });
    expect(calls[0]?.stop_reason).toBe('tool_calls');
    expect(calls[2]?.usage).toMatchObject({ input_tokens: 300, cache_read_tokens: 7, output_tokens: 30 });
    expect(calls[2]?.cost_usd).toBeCloseTo((300 * 0.4 + 7 * 0.1 + 30 * 1.6) / 1e6, 12);
  });

  it('speaks the Responses API, streamed and as JSON, with function and free-form tool calls', async () => {
    const custom = ModelScriptSchema.parse({
      turns: [
        {
          tool_calls: [
            { name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' },
            { name: 'exec_command', input: { cmd: 'ls' } },
          ],
        },
        { text: 'done', usage: { input_tokens: 5, output_tokens: 2, reasoning_tokens: 1 } },
      ],
    });
    const own = await Gateway.start({ upstream: { kind: 'script', script: custom } });
    try {
      const route = own.openRoute();
      const client = openaiFor({ ...route.env() });
      const stream = await client.responses.create({
        model: 'gpt-5.5',
        input: 'patch it',
        stream: true,
        tools: [
          { type: 'custom', name: 'apply_patch' },
          { type: 'function', name: 'exec_command', parameters: { type: 'object' }, strict: false },
        ],
      });
      const items: unknown[] = [];
      for await (const event of stream)
        if (event.type === 'response.output_item.done') items.push(event.item);
      expect(items).toEqual([
        expect.objectContaining({
          type: 'custom_tool_call',
          name: 'apply_patch',
          input: '*** Begin Patch\n*** End Patch\n',
        }),
        expect.objectContaining({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}' }),
      ]);
      const json = await client.responses.create({ model: 'gpt-5.5', input: 'and now' });
      expect(json.output_text).toBe('done');
      expect(json.usage).toMatchObject({
        input_tokens: 5,
        output_tokens: 2,
        output_tokens_details: { reasoning_tokens: 1 },
      });
      const calls = await own.closeRoute(route);
      expect(calls.map((c) => [c.api, c.stream, c.stop_reason])).toEqual([
        ['openai-responses', true, 'tool_calls'],
        ['openai-responses', false, 'completed'],
      ]);
      expect(calls[0]?.tool_calls.map((t) => t.name)).toEqual(['apply_patch', 'exec_command']);
      // gpt-5.5 is not in the price table: no cost rather than a wrong one.
      expect(calls[1]?.cost_usd).toBeUndefined();
      expect(calls[1]?.usage.reasoning_tokens).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('answers a request no entry matches with a script_exhausted error, recorded on the call', async () => {
    const short = ModelScriptSchema.parse({ name: 'short', turns: [{ text: 'only one' }] });
    const own = await Gateway.start({ upstream: { kind: 'script', script: short } });
    try {
      const route = own.openRoute();
      const client = anthropicFor({ ...route.env() });
      const params = { model: 'm', max_tokens: 5, messages: [{ role: 'user' as const, content: 'q' }] };
      await client.messages.create(params);
      const error = await client.messages.create(params).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect(String((error as Error).message)).toMatch(
        /script_exhausted|matches no entry of the script "short"/,
      );
      const calls = await own.closeRoute(route);
      expect(calls[1]).toMatchObject({
        status: 400,
        error: expect.stringMatching(/^script_exhausted: request 2/),
      });
    } finally {
      await own.close();
    }
  });

  it('refuses a template variable the trial does not define, and a closed or unknown route', async () => {
    const route = gateway.openRoute(); // no workspace
    const client = anthropicFor({ ...route.env() });
    const params = { model: 'm', max_tokens: 5, messages: [{ role: 'user' as const, content: 'q' }] };
    const error = await client.messages.create(params).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/\{\{workspace\}\}, which this trial does not define/);
    await gateway.closeRoute(route);
    const closed = await client.messages.create(params).catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(Anthropic.NotFoundError);
    const byKey = new Anthropic({ baseURL: gateway.url, apiKey: 'he-gw-nobody', maxRetries: 0 });
    expect(await byKey.messages.create(params).catch((e: unknown) => e)).toBeInstanceOf(
      Anthropic.NotFoundError,
    );
  });

  it('routes by key when the harness only sets the base URL to the gateway itself', async () => {
    const route = gateway.openRoute({ vars: { workspace: '/k' } });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: route.key, maxRetries: 0 });
    const answer = await client.chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(answer.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'Write' } });
    expect((await gateway.closeRoute(route)).map((c) => c.route)).toEqual([route.id]);
  });
});
