import { describe, expect, it } from 'vitest';
import { normalizeAgentResult } from '../../../src/adapters/agent-result.ts';
import { AgentOutputSchema } from '../../../src/core/agent-output.ts';

describe('normalizeAgentResult', () => {
  it.each([
    ['a string', 'Hello, Ada!', { output: 'Hello, Ada!' }],
    ['an object without output', { greeting: 'hi' }, { output: { greeting: 'hi' } }],
    ['an array', [1, 'two'], { output: [1, 'two'] }],
    ['a number', 42, { output: '42', structured: 42 }],
    ['a boolean', false, { output: 'false', structured: false }],
    ['null', null, { output: null }],
    ['undefined', undefined, { output: null }],
  ])('builds what the schema would from %s, keys in schema order', (_name, value, expected) => {
    const built = normalizeAgentResult(value, 0.25, { adapter: 'function' });
    const parsed = AgentOutputSchema.parse({ ...expected, latency: 0.25, metadata: { adapter: 'function' } });
    expect(built).toEqual(parsed);
    expect(Object.keys(built)).toEqual(Object.keys(parsed));
    expect(JSON.stringify(built)).toBe(JSON.stringify(parsed));
  });

  it('gives each output its own objects (nothing shared between trials)', () => {
    const metadata = { adapter: 'function' };
    const a = normalizeAgentResult('a', 0, metadata);
    const b = normalizeAgentResult('b', 0, metadata);
    expect(a.usage).not.toBe(b.usage);
    expect(a.tool_calls).not.toBe(b.tool_calls);
    expect(a.metadata).not.toBe(metadata);
  });

  it('validates an AgentOutput draft and reports what is wrong with it', () => {
    const ok = normalizeAgentResult({ output: 'x', tool_calls: [{ tool_name: 'search' }] }, 1);
    expect(ok.tool_calls[0]?.tool_name).toBe('search');
    expect(ok.latency).toBe(1);
    const bad = normalizeAgentResult({ output: 'x', tool_calls: [{ name: 'search' }] }, 1);
    expect(bad.error_kind).toBe('invalid_output');
    expect(bad.error).toMatch(/the returned AgentOutput is invalid: tool_calls\.0\.tool_name/);
  });

  it('refuses functions and outputs over the size limit', () => {
    expect(normalizeAgentResult({ run: () => 1 }, 0).error).toMatch(/"run" is a function, not JSON data/);
    const huge = normalizeAgentResult('x'.repeat(11 * 1024 * 1024), 0);
    expect(huge.error_kind).toBe('invalid_output');
    expect(huge.error).toMatch(/more than the limit of 10485760/);
  });
});
