import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Cassette, CassetteRecorder } from '../../../src/gateway/cassette.ts';
import { Gateway } from '../../../src/gateway/server.ts';
import { anthropicStream, startUpstream } from './upstream-server.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-gw-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const chatChunk = (data: object) => `data: ${JSON.stringify(data)}\n\n`;

describe('the gateway forwarding to an upstream', () => {
  it('streams the answer through unchanged, swaps the route key for the upstream key, and records it', async () => {
    const chunks = anthropicStream('hello from upstream', { input: 40, output: 9 });
    const upstream = await startUpstream(() => ({
      contentType: 'text/event-stream',
      chunks: chunks.map((text, i) => ({ text, afterMs: i === 2 ? 30 : 0 })),
    }));
    const gateway = await Gateway.start({
      upstream: {
        kind: 'forward',
        target: { baseUrl: new URL(upstream.url), apiKey: 'sk-upstream-secret-1', label: upstream.url },
      },
      recordBodies: true,
      redact: (t) => t.replaceAll('hunter2-password', '[REDACTED:PW]'),
    });
    try {
      const route = gateway.openRoute();
      const raw = await fetch(`${route.baseUrl}/v1/messages?beta=true`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': route.key,
          'x-harnesseval-role': 'planner',
        },
        body: JSON.stringify({
          model: 'claude-sonnet-4-5',
          stream: true,
          max_tokens: 9,
          messages: [{ role: 'user', content: 'hunter2-password' }],
        }),
      });
      expect(await raw.text()).toBe(chunks.join(''));
      const seen = upstream.requests[0]!;
      expect(seen.url).toBe('/v1/messages?beta=true');
      expect(seen.headers['x-api-key']).toBe('sk-upstream-secret-1');
      expect(JSON.stringify(seen.headers)).not.toContain(route.key);
      expect(seen.headers['x-harnesseval-role']).toBeUndefined();
      const [call] = await gateway.closeRoute(route);
      expect(call).toMatchObject({
        upstream: upstream.url,
        role: 'planner',
        status: 200,
        stream: true,
        response_id: 'msg_up',
        usage: { input_tokens: 40, output_tokens: 9 },
        usage_reported: true,
        stop_reason: 'end_turn',
      });
      // The first output event is timed (a positive time, within the call); how long it took is a
      // benchmark's business (bench/gateway.ts), not a unit test's.
      expect(call?.ttft_seconds).toBeGreaterThan(0);
      expect(call?.ttft_seconds).toBeLessThanOrEqual(call?.latency_seconds ?? 0);
      expect(JSON.stringify(call?.request_body)).toContain('[REDACTED:PW]');
      expect(JSON.stringify(call)).not.toContain('hunter2-password');
      expect(call?.response_body).toBe(chunks.join(''));
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });

  it('asks a chat stream for its usage and hides the usage chunk from a client that did not ask', async () => {
    const upstream = await startUpstream((request) => {
      const options = request.body['stream_options'] as { include_usage?: boolean } | undefined;
      const base = { id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'gpt-4.1-mini' };
      return {
        contentType: 'text/event-stream',
        chunks: [
          {
            text: chatChunk({
              ...base,
              choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }],
            }),
          },
          { text: chatChunk({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) },
          ...(options?.include_usage === true
            ? [
                {
                  text: chatChunk({
                    ...base,
                    choices: [],
                    usage: {
                      prompt_tokens: 12,
                      completion_tokens: 3,
                      prompt_tokens_details: { cached_tokens: 2 },
                    },
                  }),
                },
              ]
            : []),
          { text: 'data: [DONE]\n\n' },
        ],
      };
    });
    const gateway = await Gateway.start({
      upstream: { kind: 'forward', target: { baseUrl: new URL(upstream.url), label: 'up' } },
    });
    try {
      const route = gateway.openRoute();
      const client = new OpenAI({
        baseURL: route.openaiBaseUrl,
        apiKey: 'sk-harness-own-key',
        maxRetries: 0,
      });
      const stream = await client.chat.completions.create({
        model: 'gpt-4.1-mini',
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
      });
      const seen: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) seen.push(chunk);
      expect(seen.map((c) => c.choices.length)).toEqual([1, 1]);
      // With no upstream key configured the harness's own credentials pass through.
      expect(upstream.requests[0]?.headers.authorization).toBe('Bearer sk-harness-own-key');
      expect(upstream.requests[0]?.body['stream_options']).toEqual({ include_usage: true });
      const [call] = await gateway.closeRoute(route);
      expect(call).toMatchObject({
        usage: { input_tokens: 10, cache_read_tokens: 2, output_tokens: 3 },
        usage_reported: true,
        stop_reason: 'stop',
      });
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });

  it('records an unreachable upstream as a 502 the client sees as an API error', async () => {
    const gateway = await Gateway.start({
      upstream: { kind: 'forward', target: { baseUrl: new URL('http://127.0.0.1:9'), label: 'nowhere' } },
    });
    try {
      const route = gateway.openRoute();
      const client = new Anthropic({ baseURL: route.baseUrl, apiKey: route.key, maxRetries: 0 });
      const error = await client.messages
        .create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.InternalServerError);
      const [call] = await gateway.closeRoute(route);
      expect(call).toMatchObject({
        status: 502,
        usage_reported: false,
        error: expect.stringMatching(/^upstream_unreachable: nowhere/),
      });
    } finally {
      await gateway.close();
    }
  });

  it('records a call the harness hung up on mid-stream, with the usage seen so far marked', async () => {
    const chunks = anthropicStream('slow', { input: 5, output: 5 });
    const upstream = await startUpstream(() => ({
      contentType: 'text/event-stream',
      chunks: [{ text: chunks[0]! }, { text: chunks[1]!, afterMs: 5000 }],
    }));
    const gateway = await Gateway.start({
      upstream: { kind: 'forward', target: { baseUrl: new URL(upstream.url), label: 'up' } },
    });
    try {
      const route = gateway.openRoute();
      const abort = new AbortController();
      const response = await fetch(`${route.baseUrl}/v1/messages`, {
        method: 'POST',
        signal: abort.signal,
        body: JSON.stringify({ model: 'm', stream: true, messages: [] }),
      });
      const reader = response.body!.getReader();
      await reader.read();
      abort.abort();
      const [call] = await gateway.closeRoute(route);
      expect(call?.error).toMatch(/hung up/);
      expect(call?.usage.input_tokens).toBe(5);
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });

  it('records a cassette while forwarding and replays it by normalised request, with a clear miss', async () => {
    const upstream = await startUpstream((request) => ({
      contentType: 'text/event-stream',
      chunks: anthropicStream(`answer to ${JSON.stringify(request.body['messages'])}`, {
        input: 11,
        output: 4,
      }).map((text) => ({ text })),
    }));
    const file = join(dir, 'calls.cassette.jsonl');
    const recording = await Gateway.start({
      upstream: {
        kind: 'forward',
        target: { baseUrl: new URL(upstream.url), label: 'up' },
        recorder: new CassetteRecorder(file),
      },
    });
    const ask = (baseURL: string, text: string) =>
      new Anthropic({ baseURL, apiKey: 'k', maxRetries: 0 }).messages.create({
        model: 'claude-sonnet-4-5',
        max_tokens: 4,
        metadata: { user_id: `session-${text.length}-${Date.now()}` },
        messages: [{ role: 'user', content: text }],
      });
    let recorded: string;
    try {
      const route = recording.openRoute({ vars: { workspace: '/tmp/trial-aaaa' } });
      recorded = JSON.stringify(
        (
          await ask(
            route.baseUrl,
            'fix /tmp/trial-aaaa/src on 2026-11-30 id 123e4567-e89b-12d3-a456-426614174000',
          )
        ).content,
      );
      await recording.closeRoute(route);
    } finally {
      await recording.close();
      await upstream.close();
    }
    expect((await readFile(file, 'utf8')).split('\n').filter(Boolean)).toHaveLength(1);
    const cassette = Cassette.load(file);
    const replaying = await Gateway.start({ upstream: { kind: 'cassette', cassette } });
    try {
      // Another trial (another workspace), another day, another UUID: the same question.
      const route = replaying.openRoute({ vars: { workspace: '/tmp/trial-bbbb' } });
      const again = await ask(
        route.baseUrl,
        'fix /tmp/trial-bbbb/src on 2026-12-25 id 00000000-1111-2222-3333-444444444444',
      );
      expect(JSON.stringify(again.content)).toBe(recorded);
      const miss = await ask(route.baseUrl, 'a question never recorded').catch((e: unknown) => e);
      expect(miss).toBeInstanceOf(Anthropic.BadRequestError);
      expect(String((miss as Error).message)).toContain('cassette_miss');
      const calls = await replaying.closeRoute(route);
      expect(calls[0]).toMatchObject({ upstream: 'cassette', usage: { input_tokens: 11, output_tokens: 4 } });
      expect(calls[1]?.error).toMatch(
        /^cassette_miss: cassette .* has no answer for request 2 .*"a question never recorded"/,
      );
    } finally {
      await replaying.close();
    }
  });

  it('refuses a cassette line that is not an entry, naming the file and line', async () => {
    const file = join(dir, 'bad.jsonl');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, '\n{"key":"nope"}\n'));
    expect(() => Cassette.load(file)).toThrow(/bad\.jsonl:2:1: key/);
  });
});
