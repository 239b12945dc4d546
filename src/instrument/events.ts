import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import {
  AgentCallSchema,
  CircuitBreakerSchema,
  emptyTrace,
  HumanTouchpointSchema,
  OperatorPromptSchema,
  ReportedCostSchema,
  type ToolCall,
  ToolCallSchema,
  type Trace,
} from '../core/agent-output.ts';

/** The environment variable naming the file where a subprocess harness appends its events. */
export const EVENTS_ENV = 'HARNESSEVAL_EVENTS';

/**
 * The event protocol for harnesses in any language: one JSON object per line, appended to the file
 * named by `HARNESSEVAL_EVENTS`. `type` selects the event; the other fields are the tracker's.
 */
export const HarnessEventSchema = z.discriminatedUnion('type', [
  AgentCallSchema.extend({ type: z.literal('agent_call') }),
  OperatorPromptSchema.extend({ type: z.literal('prompt') }),
  HumanTouchpointSchema.extend({ type: z.literal('human') }),
  CircuitBreakerSchema.omit({ type: true }).extend({
    type: z.literal('circuit_breaker'),
    breaker: z.string().min(1),
  }),
  ToolCallSchema.extend({ type: z.literal('tool_call') }),
  ReportedCostSchema.extend({ type: z.literal('cost') }),
  z.object({ type: z.literal('first_pass_approval'), approved: z.boolean() }),
]);
export type HarnessEvent = z.infer<typeof HarnessEventSchema>;

export interface ParsedEvents {
  readonly trace: Trace;
  readonly toolCalls: ToolCall[];
}

/** Lines above this size are reported as malformed instead of parsed (a harness cannot exhaust memory). */
const MAX_LINE = 1024 * 1024;

/** Parses an events file. Malformed lines are kept in `trace.malformed_events`, never fatal. */
export function parseEvents(text: string): ParsedEvents {
  const trace: Trace = emptyTrace();
  const toolCalls: ToolCall[] = [];
  const applyEvent = (event: HarnessEvent): void => {
    switch (event.type) {
      case 'agent_call': {
        const { type: _type, ...call } = event;
        trace.agent_calls.push(call);
        return;
      }
      case 'prompt': {
        const { type: _type, ...prompt } = event;
        trace.prompts.push(prompt);
        return;
      }
      case 'human': {
        const { type: _type, ...touchpoint } = event;
        trace.human.push(touchpoint);
        return;
      }
      case 'circuit_breaker': {
        const { type: _type, breaker, ...rest } = event;
        trace.circuit_breakers.push({ type: breaker, ...rest });
        return;
      }
      case 'tool_call': {
        const { type: _type, ...call } = event;
        toolCalls.push(call);
        return;
      }
      case 'cost': {
        const { type: _type, ...cost } = event;
        trace.costs = [...(trace.costs ?? []), cost];
        return;
      }
      case 'first_pass_approval':
        trace.first_pass_approval = event.approved;
        return;
    }
  };
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index === 0 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') return;
    const problem = eventProblem(line);
    if (typeof problem === 'string') trace.malformed_events.push({ line: index + 1, error: problem });
    else applyEvent(problem);
  });
  return { trace, toolCalls };
}

/** The event on a line, or what is wrong with the line. */
function eventProblem(line: string): HarnessEvent | string {
  if (line.length > MAX_LINE) return `line longer than ${MAX_LINE} characters`;
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return `not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  const parsed = HarnessEventSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `${issue?.path.join('.') || 'event'}: ${issue?.message ?? 'invalid event'}`;
}

/** Reads and parses an events file; a missing file means the harness reported nothing. */
export async function readEventsFile(path: string): Promise<ParsedEvents | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  return parseEvents(text);
}
