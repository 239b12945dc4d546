import type { AgentOutput } from '../core/agent-output.ts';
import { atifToTrace } from '../formats/atif.ts';
import { AtifTrajectorySchema } from '../formats/atif-schema.ts';
import { withNote, withReported } from './reported-trace.ts';

/** A trace file holding one JSON document with an `ATIF-v…` schema_version is an ATIF trajectory. */
export function atifDocument(documents: readonly unknown[]): unknown {
  if (documents.length !== 1) return undefined;
  const doc = documents[0] as { schema_version?: unknown } | null;
  return typeof doc?.schema_version === 'string' && doc.schema_version.startsWith('ATIF-') ? doc : undefined;
}

/** Adds an ATIF trajectory's calls, tool calls and tokens to the trial; a bad one is noted, never fatal. */
export function mergeAtif(output: AgentOutput, document: unknown, file: string): AgentOutput {
  const parsed = AtifTrajectorySchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return withNote(output, {
      line: 0,
      error: `trace file ${file}: not an ATIF trajectory: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`,
    });
  }
  const atif = atifToTrace(parsed.data);
  const merged = withReported(output, { trace: atif.trace, toolCalls: atif.tool_calls });
  return {
    ...merged,
    usage: {
      tokens_in: output.usage.tokens_in + atif.usage.tokens_in,
      tokens_out: output.usage.tokens_out + atif.usage.tokens_out,
      cached_tokens: output.usage.cached_tokens + atif.usage.cached_tokens,
      // A known cost plus calls nobody priced is no longer known.
      cost_usd:
        output.usage.cost_usd === null || (atif.usage.cost_usd === null && atif.trace.agent_calls.length > 0)
          ? output.usage.cost_usd === null
            ? atif.usage.cost_usd
            : null
          : output.usage.cost_usd + (atif.usage.cost_usd ?? 0),
    },
  };
}
