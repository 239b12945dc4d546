import type { AgentCall, AgentOutput, Trace } from '../core/agent-output.ts';
import { emptyTrace } from '../core/agent-output.ts';
import { type GatewayCall, toAgentCall } from './call-record.ts';

/** The ids a harness's own report may give a call: the response's id (Claude Code's `message.id`). */
function reportedId(call: AgentCall): string | undefined {
  const id = call.metadata['response_id'] ?? call.metadata['message_id'];
  return typeof id === 'string' ? id : undefined;
}

const sum = (calls: readonly AgentCall[], pick: (c: AgentCall) => number): number =>
  calls.reduce((s, c) => s + pick(c), 0);

/**
 * The trial's output with the gateway's calls as its model calls. The gateway saw every call, so
 * its figures replace what the harness reported; a reported call with the same response id (or,
 * when the harness reports no ids but as many calls, the one in the same place) lends its role
 * (a sub-agent, a planner) and its own details. What the harness reported stays in
 * `metadata.harness_reported`, so the two can be compared. Without gateway calls, unchanged.
 */
export function mergeGatewayCalls(output: AgentOutput, calls: readonly GatewayCall[]): AgentOutput {
  if (calls.length === 0) return output;
  const trace: Trace = output.trace ?? emptyTrace();
  const reported = trace.agent_calls;
  const byId = new Map<string, AgentCall>();
  for (const call of reported) {
    const id = reportedId(call);
    if (id !== undefined) byId.set(id, call);
  }
  // A harness that reports no response ids (Codex's rollout) but every call, in order, is paired by position.
  const byOrder = byId.size === 0 && reported.length === calls.length;
  let matched = 0;
  const merged = calls.map((gatewayCall, index) => {
    const call = toAgentCall(gatewayCall);
    const twin = byOrder
      ? reported[index]
      : gatewayCall.response_id === undefined
        ? undefined
        : byId.get(gatewayCall.response_id);
    if (twin === undefined) return call;
    matched++;
    return {
      ...call,
      role: gatewayCall.role ?? twin.role,
      metadata: { ...twin.metadata, ...call.metadata },
    };
  });
  const reportedCost = output.usage.cost_usd;
  return {
    ...output,
    trace: { ...trace, agent_calls: merged },
    usage: {
      tokens_in: sum(merged, (c) => c.tokens_in),
      tokens_out: sum(merged, (c) => c.tokens_out),
      cached_tokens: sum(merged, (c) => c.cached_tokens),
      // Priced from the gateway's tokens by the runner; a cost the harness reported is kept below.
      cost_usd: null,
    },
    metadata: {
      ...output.metadata,
      gateway_calls: calls.length,
      harness_reported: {
        agent_calls: reported.length,
        matched,
        ...(byOrder ? { matched_by: 'order' } : {}),
        tokens_in: sum(reported, (c) => c.tokens_in),
        tokens_out: sum(reported, (c) => c.tokens_out),
        cached_tokens: sum(reported, (c) => c.cached_tokens),
        ...(reportedCost === null ? {} : { cost_usd: reportedCost }),
      },
    },
  };
}
