import { describe, expect, it } from 'vitest';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import type { GatewayCall } from '../../../src/gateway/call-record.ts';
import { mergeGatewayCalls } from '../../../src/gateway/merge.ts';

const call = (seq: number, over: Partial<GatewayCall> = {}): GatewayCall => ({
  route: 'r',
  seq,
  api: 'anthropic-messages',
  provider: 'anthropic',
  upstream: 'script',
  model: 'claude-sonnet-4-5',
  response_id: `msg_${seq}`,
  stream: true,
  status: 200,
  started_at: '2026-12-01T00:00:00.000Z',
  latency_seconds: 0.5,
  usage: {
    input_tokens: 100,
    output_tokens: 10,
    cache_read_tokens: 20,
    cache_write_tokens: 5,
    reasoning_tokens: 0,
  },
  usage_reported: true,
  tool_calls: [],
  ...over,
});

describe('mergeGatewayCalls', () => {
  it('replaces reported model calls by the gateway’s, keeping roles and details of calls with the same id', () => {
    const output = agentOutput({
      output: 'done',
      usage: { tokens_in: 1, tokens_out: 1, cost_usd: 0.5 },
      trace: {
        agent_calls: [
          {
            role: 'Explore',
            tokens_in: 9,
            tokens_out: 1,
            metadata: { message_id: 'msg_2', parent_tool_use_id: 'toolu_1' },
          },
          { role: 'agent', tokens_in: 9, tokens_out: 1, metadata: { message_id: 'msg_elsewhere' } },
        ],
      },
    });
    const merged = mergeGatewayCalls(output, [call(1, { role: 'planner' }), call(2)]);
    expect(
      merged.trace?.agent_calls.map((c) => [c.role, c.tokens_in, c.cached_tokens, c.cache_write_tokens]),
    ).toEqual([
      ['planner', 125, 20, 5],
      ['Explore', 125, 20, 5],
    ]);
    expect(merged.trace?.agent_calls[1]?.metadata).toMatchObject({
      parent_tool_use_id: 'toolu_1',
      source: 'gateway',
    });
    expect(merged.usage).toEqual({ tokens_in: 250, tokens_out: 20, cached_tokens: 40, cost_usd: null });
    expect(merged.metadata).toMatchObject({
      gateway_calls: 2,
      harness_reported: { agent_calls: 2, matched: 1, tokens_in: 18, tokens_out: 2, cost_usd: 0.5 },
    });
  });

  it('pairs calls by position when the harness reports every call but no ids (Codex)', () => {
    const output = agentOutput({
      output: 'x',
      trace: {
        agent_calls: [
          { role: 'main', tokens_in: 1, metadata: { reasoning_tokens: 4 } },
          { role: 'main', tokens_in: 2 },
        ],
      },
    });
    const merged = mergeGatewayCalls(output, [
      call(1, { response_id: 'resp_1' }),
      call(2, { response_id: 'resp_2' }),
    ]);
    expect(merged.trace?.agent_calls.map((c) => c.role)).toEqual(['main', 'main']);
    expect(merged.metadata['harness_reported']).toMatchObject({ matched: 2, matched_by: 'order' });
    const fewer = mergeGatewayCalls(
      agentOutput({ output: 'x', trace: { agent_calls: [{ role: 'main' }] } }),
      [call(1), call(2)],
    );
    expect(fewer.trace?.agent_calls.map((c) => c.role)).toEqual(['agent', 'agent']);
  });

  it('leaves an output alone when the gateway saw no call', () => {
    const output = agentOutput({ output: 'x' });
    expect(mergeGatewayCalls(output, [])).toBe(output);
  });
});

describe('gateway: in a harness config', () => {
  it.each([
    [{ upstream: 'script' }, 'script'],
    [{ upstream: 'cassette' }, 'cassette'],
    [{ upstream: 'ftp-thing' }, 'upstream'],
    [{ upstream: 'openai', record_body: true }, ''],
  ])('refuses %j at %s', (gateway, path) => {
    const parsed = HarnessConfigSchema.safeParse({ adapter: 'cli', gateway });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.slice(1).join('.'))).toContain(path);
  });

  it('accepts the provider, URL and script forms', () => {
    for (const gateway of [
      { upstream: 'anthropic' },
      { upstream: 'http://127.0.0.1:8080/v1' },
      { upstream: 'script', script: 's.yaml' },
    ])
      expect(HarnessConfigSchema.parse({ adapter: 'cli', gateway }).gateway).toMatchObject({
        ...gateway,
        record_bodies: false,
      });
  });
});
