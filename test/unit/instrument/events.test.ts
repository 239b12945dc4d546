import { describe, expect, it } from 'vitest';
import { parseEvents } from '../../../src/instrument/events.ts';

const lines = (...objects: unknown[]) =>
  objects.map((o) => (typeof o === 'string' ? o : JSON.stringify(o))).join('\n');

describe('parseEvents', () => {
  it('turns each event type into the trace', () => {
    const parsed = parseEvents(
      lines(
        {
          type: 'agent_call',
          role: 'planner',
          model: 'gpt-4o',
          tokens_in: 100,
          tokens_out: 20,
          cost_usd: 0.01,
        },
        { type: 'prompt', kind: 'unplanned', text: 'fix the tests' },
        { type: 'human', action: 'reject', kind: 'planned', minutes: 3 },
        {
          type: 'circuit_breaker',
          breaker: 'CB2:review-rejection',
          trigger: 'reviewer rejected twice',
          resolution: 'escalated',
        },
        { type: 'tool_call', tool_name: 'bash', args: { cmd: 'ls' }, duration: 0.2 },
        { type: 'cost', cost_usd: 0.5 },
        { type: 'first_pass_approval', approved: false },
      ),
    );
    expect(parsed.trace.agent_calls).toHaveLength(1);
    expect(parsed.trace.agent_calls[0]).toMatchObject({ role: 'planner', tokens_in: 100, tokens_out: 20 });
    expect(parsed.trace.prompts).toEqual([{ kind: 'unplanned', text: 'fix the tests' }]);
    expect(parsed.trace.human[0]).toMatchObject({ action: 'reject', kind: 'planned', minutes: 3 });
    expect(parsed.trace.circuit_breakers).toEqual([
      { type: 'CB2:review-rejection', trigger: 'reviewer rejected twice', resolution: 'escalated' },
    ]);
    expect(parsed.toolCalls[0]).toMatchObject({ tool_name: 'bash', status: 'success' });
    expect(parsed.trace.costs).toEqual([{ cost_usd: 0.5, tokens_in: 0, tokens_out: 0 }]);
    expect(parsed.trace.first_pass_approval).toBe(false);
    expect(parsed.trace.malformed_events).toEqual([]);
  });

  it('reports malformed lines with their line numbers and keeps going', () => {
    const parsed = parseEvents(
      lines('{not json', { type: 'teleport' }, { type: 'human', action: 'dance', kind: 'planned' }, '', {
        type: 'prompt',
        kind: 'planned',
      }),
    );
    expect(parsed.trace.malformed_events.map((m) => m.line)).toEqual([1, 2, 3]);
    expect(parsed.trace.malformed_events[0]?.error).toMatch(/not JSON/);
    expect(parsed.trace.prompts).toHaveLength(1);
  });

  it('accepts a BOM, CRLF line ends and blank lines; empty text gives an empty trace', () => {
    const parsed = parseEvents(`\uFEFF${JSON.stringify({ type: 'prompt', kind: 'planned' })}\r\n\r\n`);
    expect(parsed.trace.prompts).toHaveLength(1);
    expect(parseEvents('').trace.malformed_events).toEqual([]);
  });
});
