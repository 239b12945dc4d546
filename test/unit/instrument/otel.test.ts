import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ingestOtlp } from '../../../src/instrument/otel.ts';

const fixture: unknown = JSON.parse(
  readFileSync(new URL('../../fixtures/otel/agent-run.json', import.meta.url), 'utf8'),
);

describe('ingestOtlp', () => {
  const result = ingestOtlp([fixture]);

  it('turns invoke_agent spans into agent invocations', () => {
    expect(result.invocations.map((i) => i.name)).toEqual(['planner', 'reviewer']);
    expect(result.invocations[0]?.duration_seconds).toBeCloseTo(3, 9);
  });

  it('turns model spans into agent calls attributed to the enclosing agent', () => {
    expect(result.agentCalls).toHaveLength(2);
    expect(result.agentCalls[0]).toMatchObject({
      role: 'planner',
      model: 'gpt-4o-2024-08-06',
      provider: 'openai',
      tokens_in: 100,
      tokens_out: 20,
    });
    expect(result.agentCalls[1]).toMatchObject({
      role: 'reviewer',
      model: 'claude-sonnet-4',
      provider: 'anthropic',
      error: 'rate_limit_exceeded',
    });
  });

  it('sums tokens from inference spans only (the agent span’s 999 is not counted), legacy names included', () => {
    expect(result.tokensIn).toBe(150);
    expect(result.tokensOut).toBe(27);
  });

  it('deduplicates MCP tools/call spans against execute_tool by gen_ai.tool.call.id', () => {
    expect(result.toolCalls.map((t) => [t.tool_name, t.id, t.status])).toEqual([
      ['hello_world', 'call_1', 'success'],
      ['search', 'call_2', 'error'],
    ]);
    expect(result.toolCalls[0]?.args).toEqual({ name: 'Ada' });
  });

  it('collects errors from error.type and span status', () => {
    expect(result.errors).toEqual([
      'tools/call search: upstream 503',
      'text_completion legacy: rate_limit_exceeded',
    ]);
    expect(result.spans).toBe(8);
  });

  it('handles an empty document and rejects a malformed one with a zod error', () => {
    expect(ingestOtlp([{}]).spans).toBe(0);
    expect(() => ingestOtlp([{ resourceSpans: 'nope' }])).toThrow();
  });
});

/** One OTLP document from compact span descriptions. */
function otlp(
  spans: {
    id: string;
    parent?: string;
    name: string;
    attrs?: Record<string, string | number | boolean>;
    events?: { name: string; attrs: Record<string, string | number | boolean> }[];
  }[],
) {
  const value = (v: string | number | boolean) =>
    typeof v === 'string'
      ? { stringValue: v }
      : typeof v === 'boolean'
        ? { boolValue: v }
        : { intValue: String(v) };
  const attributes = (a: Record<string, string | number | boolean> = {}) =>
    Object.entries(a).map(([key, v]) => ({ key, value: value(v) }));
  return {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: spans.map((s) => ({
              traceId: 't',
              spanId: s.id,
              ...(s.parent === undefined ? {} : { parentSpanId: s.parent }),
              name: s.name,
              attributes: attributes(s.attrs),
              events: (s.events ?? []).map((e) => ({
                name: e.name,
                timeUnixNano: '1764547200000000000',
                attributes: attributes(e.attrs),
              })),
            })),
          },
        ],
      },
    ],
  };
}

describe('spans without gen_ai.operation.name', () => {
  it('a span with gen_ai.usage.* is a model call, unless a span below it carries usage too (a total)', () => {
    const result = ingestOtlp([
      otlp([
        {
          id: 'a',
          name: 'ai.generateText',
          attrs: { 'gen_ai.usage.input_tokens': 250, 'gen_ai.usage.output_tokens': 28 },
        },
        {
          id: 'b',
          parent: 'a',
          name: 'ai.generateText.doGenerate',
          attrs: {
            'gen_ai.request.model': 'gpt-4o',
            'gen_ai.response.id': 'resp_1',
            'gen_ai.usage.input_tokens': 100,
            'gen_ai.usage.output_tokens': 20,
            'gen_ai.usage.cache_creation.input_tokens': 40,
            'gen_ai.usage.cache_read.input_tokens': 10,
            'ai.telemetry.functionId': 'planner',
          },
        },
        {
          id: 'c',
          parent: 'a',
          name: 'ai.generateText.doGenerate',
          attrs: { 'gen_ai.usage.input_tokens': 150, 'gen_ai.usage.output_tokens': 8 },
        },
        {
          id: 'd',
          parent: 'a',
          name: 'ai.toolCall',
          attrs: {
            'ai.toolCall.name': 'add',
            'ai.toolCall.id': 'call-1',
            'ai.toolCall.args': '{"a":1}',
            'ai.toolCall.result': '3',
          },
        },
      ]),
    ]);
    expect(
      result.agentCalls.map((c) => [c.id, c.role, c.tokens_in, c.cached_tokens, c.cache_write_tokens]),
    ).toEqual([
      ['resp_1', 'planner', 100, 10, 40],
      [undefined, 'agent', 150, 0, undefined],
    ]);
    expect([result.tokensIn, result.tokensOut]).toEqual([250, 28]);
    expect(result.toolCalls).toEqual([
      { tool_name: 'add', id: 'call-1', args: { a: 1 }, status: 'success', result: '3' },
    ]);
  });
});

describe('harnesseval.* span events', () => {
  it('report prompts, human touchpoints, breakers, first-pass approval and costs; a bad one is a problem', () => {
    const result = ingestOtlp([
      otlp([
        {
          id: 'a',
          name: 'invoke_agent reviewer',
          events: [
            {
              name: 'harnesseval.prompt',
              attrs: { 'harnesseval.prompt.kind': 'planned', 'harnesseval.role': 'reviewer' },
            },
            {
              name: 'harnesseval.human',
              attrs: {
                'harnesseval.human.action': 'reject',
                'harnesseval.human.kind': 'planned',
                'harnesseval.human.minutes': 3,
              },
            },
            {
              name: 'harnesseval.circuit_breaker',
              attrs: { 'harnesseval.circuit_breaker.type': 'CB1:test-failure' },
            },
            {
              name: 'harnesseval.first_pass_approval',
              attrs: { 'harnesseval.first_pass_approval.approved': false },
            },
            { name: 'harnesseval.cost', attrs: { 'harnesseval.cost.usd': 1, 'harnesseval.role': 'sandbox' } },
            { name: 'harnesseval.circuit_breaker', attrs: {} },
            { name: 'unrelated', attrs: {} },
          ],
        },
        // A span named like an event counts as one, with its attributes.
        {
          id: 'b',
          parent: 'a',
          name: 'harnesseval.human',
          attrs: { 'harnesseval.human.action': 'approve', 'harnesseval.human.kind': 'unplanned' },
        },
      ]),
    ]);
    const at = '2025-12-01T00:00:00.000Z';
    expect(result.prompts).toEqual([{ kind: 'planned', role: 'reviewer', at }]);
    expect(result.human.map((h) => [h.action, h.kind, h.minutes])).toEqual([
      ['reject', 'planned', 3],
      ['approve', 'unplanned', 0],
    ]);
    expect(result.circuitBreakers).toEqual([{ type: 'CB1:test-failure', at }]);
    expect(result.firstPassApproval).toBe(false);
    expect(result.costs).toEqual([{ cost_usd: 1, tokens_in: 0, tokens_out: 0, role: 'sandbox' }]);
    expect(result.problems).toEqual([
      'invoke_agent reviewer: harnesseval.circuit_breaker: harnesseval.circuit_breaker.type is required (e.g. CB2:review-rejection)',
    ]);
  });
});
