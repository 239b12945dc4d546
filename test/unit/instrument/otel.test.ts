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
