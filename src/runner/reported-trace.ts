import { type AgentOutput, emptyTrace, type ToolCall, type Trace } from '../core/agent-output.ts';

/** What a harness reported beside its output (events, an OTLP or ATIF trace file). */
export interface Reported {
  readonly trace: Trace;
  readonly toolCalls: readonly ToolCall[];
}

/**
 * Adds what a harness reported to its output, the same for every source: the trace parts are
 * appended, and a reported tool call whose id the output already has is that call, counted once.
 * Tokens and cost are left to the cost pass, which merges every source per call.
 */
export function withReported(output: AgentOutput, reported: Reported): AgentOutput {
  const known = new Set(output.tool_calls.map((t) => t.id).filter((id) => id !== undefined));
  return {
    ...output,
    trace: mergeTraces(output.trace, reported.trace),
    tool_calls: [
      ...output.tool_calls,
      ...reported.toolCalls.filter((t) => t.id === undefined || !known.has(t.id)),
    ],
  };
}

/** The output with a note that a report could not be read (malformed input is noted, never fatal). */
export function withNote(output: AgentOutput, note: { line: number; error: string }): AgentOutput {
  const trace = mergeTraces(output.trace, undefined);
  trace.malformed_events.push(note);
  return { ...output, trace };
}

function mergeTraces(a: Trace | undefined, b: Trace | undefined): Trace {
  const first = a ?? emptyTrace();
  const merged: Trace = {
    agent_calls: [...first.agent_calls, ...(b?.agent_calls ?? [])],
    agent_invocations: [...first.agent_invocations, ...(b?.agent_invocations ?? [])],
    prompts: [...first.prompts, ...(b?.prompts ?? [])],
    human: [...first.human, ...(b?.human ?? [])],
    circuit_breakers: [...first.circuit_breakers, ...(b?.circuit_breakers ?? [])],
    malformed_events: [...first.malformed_events, ...(b?.malformed_events ?? [])],
  };
  const costs = [...(first.costs ?? []), ...(b?.costs ?? [])];
  if (costs.length > 0) merged.costs = costs;
  const approval = b?.first_pass_approval ?? first.first_pass_approval;
  if (approval !== undefined) merged.first_pass_approval = approval;
  return merged;
}
