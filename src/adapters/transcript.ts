import {
  type AgentCall,
  type AgentOutput,
  type ErrorKind,
  emptyTrace,
  type ToolCall,
  type Trace,
  type Usage,
} from '../core/agent-output.ts';
import type { JsonRecord } from './json-fields.ts';

/** What a transcript parser read from a coding-agent CLI's event stream. */
export interface ParsedTranscript {
  readonly output: AgentOutput['output'];
  readonly toolCalls: ToolCall[];
  readonly trace: Trace;
  readonly usage: Usage;
  readonly metadata: Record<string, unknown>;
  readonly error?: { readonly kind: ErrorKind; readonly message: string };
  /** The stream reached its final event (`result`, `turn.completed`): the run ended, it was not cut off. */
  readonly finished: boolean;
}

/** How many unknown events are kept whole; the rest are only counted. */
const KEPT_UNKNOWN = 20;

/**
 * Events a parser does not understand (a newer CLI, a type we do not map): kept as they came,
 * never fatal, so a record shows what was there.
 */
export class RawEvents {
  private readonly counts: Record<string, number> = {};
  private readonly kept: { line: number; event: JsonRecord }[] = [];

  /** `kind` names the event when its `type` does not (an ACP update's `sessionUpdate`). */
  add(line: number, event: JsonRecord, kind?: string): void {
    const type = kind ?? (typeof event['type'] === 'string' ? event['type'] : '(no type)');
    const subtype = typeof event['subtype'] === 'string' ? `/${event['subtype']}` : '';
    const key = type + subtype;
    this.counts[key] = (this.counts[key] ?? 0) + 1;
    if (this.kept.length < KEPT_UNKNOWN) this.kept.push({ line, event });
  }

  /** `{ unknown_events: { counts, events } }`, or nothing when there were none. */
  metadata(): Record<string, unknown> {
    if (this.kept.length === 0) return {};
    return { unknown_events: { counts: { ...this.counts }, events: [...this.kept] } };
  }
}

export function newTrace(): Trace {
  return emptyTrace();
}

/** The trial's usage: the sum of its model calls (the cost is left to the price table). */
export function usageOf(calls: readonly AgentCall[]): Usage {
  let tokensIn = 0;
  let tokensOut = 0;
  let cached = 0;
  for (const call of calls) {
    tokensIn += call.tokens_in;
    tokensOut += call.tokens_out;
    cached += call.cached_tokens;
  }
  return { tokens_in: tokensIn, tokens_out: tokensOut, cached_tokens: cached, cost_usd: null };
}
