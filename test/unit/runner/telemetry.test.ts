import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { EVENTS_ENV } from '../../../src/instrument/events.ts';
import { OTEL_FILE_ENV, TrialTelemetry } from '../../../src/runner/telemetry.ts';

// What a harness reports beside its output (events, an OTLP or ATIF trace file) is merged by one
// rule: trace parts appended, a tool call the output already has (same id) counted once.
const fixtures = new URL('../../fixtures/', import.meta.url).pathname;
const known = { tool_name: 'lookup', args: { q: 'Ada' }, status: 'success' as const, id: 'call-1' };

async function telemetry(trace: string | undefined) {
  const dir = await mkdtemp(join(tmpdir(), 'he-telemetry-'));
  const t = TrialTelemetry.create('task#0', trace === undefined ? undefined : 'trace-{trial}.json', dir);
  if (trace !== undefined) await writeFile(t.env()[OTEL_FILE_ENV]!, trace);
  return t;
}

describe('TrialTelemetry.collect', () => {
  it('counts a reported tool call the output already has once, from the events file too', async () => {
    const t = await telemetry(undefined);
    const events = [
      { type: 'tool_call', ...known },
      { type: 'tool_call', tool_name: 'greet', args: {}, status: 'success', id: 'call-2' },
      { type: 'first_pass_approval', approved: true },
    ];
    await writeFile(t.env()[EVENTS_ENV]!, `${events.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const out = await t.collect(agentOutput({ output: 'hi', tool_calls: [known] }));
    expect(out.tool_calls.map((c) => c.id)).toEqual(['call-1', 'call-2']);
    expect(out.trace?.first_pass_approval).toBe(true);
  });

  it('merges an ATIF trace file: calls, tool calls once, tokens, and our round-tripped fields', async () => {
    const doc = JSON.parse(await readFile(join(fixtures, 'atif/atif-trajectory.json'), 'utf8'));
    // A trajectory HarnessEval wrote keeps what ATIF has no slot for in extra.harnesseval; the
    // OTel path always kept first-pass approval, the ATIF path used to drop it.
    doc.extra = { harnesseval: { first_pass_approval: false } };
    const t = await telemetry(JSON.stringify(doc));
    const out = await t.collect(agentOutput({ output: 'hi', tool_calls: [known] }));
    expect(out.trace?.agent_calls.length).toBeGreaterThan(0);
    expect(out.trace?.first_pass_approval).toBe(false);
    expect(out.tool_calls.filter((c) => c.id === 'call-1')).toHaveLength(1);
    expect(out.usage.tokens_in).toBe(out.trace?.agent_calls.reduce((s, c) => s + c.tokens_in, 0));
    expect(out.trace?.malformed_events).toEqual([]);
  });

  it('merges an OTLP trace file the same way', async () => {
    const doc = JSON.parse(await readFile(join(fixtures, 'otel/agent-run.json'), 'utf8'));
    const spans = doc.resourceSpans[0].scopeSpans[0].spans as { name: string; attributes: unknown[] }[];
    const tool = spans.find((s) => s.name.startsWith('execute_tool'))!;
    tool.attributes.push({ key: 'gen_ai.tool.call.id', value: { stringValue: 'call-9' } });
    const out = await (await telemetry(JSON.stringify(doc))).collect(agentOutput({ output: 'hi' }));
    expect(out.trace?.agent_calls.map((c) => c.model)).toContain('gpt-4o-2024-08-06');
    expect(out.tool_calls.filter((c) => c.id === 'call-9').map((c) => c.tool_name)).toEqual(['hello_world']);
    const seen = { tool_name: 'hello_world', args: {}, status: 'success' as const, id: 'call-9' };
    const again = await (await telemetry(JSON.stringify(doc))).collect(
      agentOutput({ output: 'hi', tool_calls: [seen] }),
    );
    expect(again.tool_calls.filter((c) => c.id === 'call-9')).toEqual([seen]);
    expect(again.tool_calls).toHaveLength(out.tool_calls.length);
  });

  it('notes a trace file that is not JSON, not OTLP or a bad ATIF trajectory, and keeps the output', async () => {
    for (const [text, wanted] of [
      ['{nope', 'not JSON'],
      ['{"resourceSpans": 3}', 'not OTLP/JSON'],
      ['{"schema_version": "ATIF-v1.7", "steps": 1}', 'not an ATIF trajectory'],
    ] as const) {
      const out = await (await telemetry(text)).collect(agentOutput({ output: 'hi', tool_calls: [known] }));
      expect(out.output).toBe('hi');
      expect(out.tool_calls).toEqual([known]);
      expect(out.trace?.malformed_events).toHaveLength(1);
      expect(out.trace?.malformed_events[0]?.error).toContain(wanted);
    }
  });
});
