import type { Trace } from '../core/agent-output.ts';
import type { CriterionResult } from '../core/evaluation.ts';
import type { ProcessMetrics, RoleBreakdown } from '../core/run-record.ts';

/**
 * First-pass approval: the harness's explicit verdict when it reported one; otherwise whether the
 * first approve/reject touchpoint was an approval; null when nothing was ever reviewed.
 */
export function firstPassApproval(trace: Trace): boolean | null {
  if (trace.first_pass_approval !== undefined) return trace.first_pass_approval;
  const verdict = trace.human.find((h) => h.action === 'approve' || h.action === 'reject');
  return verdict === undefined ? null : verdict.action === 'approve';
}

/** The seed-004 process metrics of one run, from its trace and criterion results. */
export function processMetrics(trace: Trace, criteria: readonly CriterionResult[]): ProcessMetrics {
  const planned = (kind: string) => (x: { kind: string }) => x.kind === kind;
  const graded = criteria.filter((c) => c.status !== 'pending');
  return {
    prompts_total: trace.prompts.length,
    prompts_planned: trace.prompts.filter(planned('planned')).length,
    prompts_unplanned: trace.prompts.filter(planned('unplanned')).length,
    hitl_total: trace.human.length,
    hitl_planned: trace.human.filter(planned('planned')).length,
    hitl_unplanned: trace.human.filter(planned('unplanned')).length,
    first_pass_approval: firstPassApproval(trace),
    circuit_breakers_fired: trace.circuit_breakers.length,
    circuit_breaker_types: [...new Set(trace.circuit_breakers.map((b) => b.type))],
    acceptance_criteria_passed: graded.filter((c) => c.status === 'passed').length,
    acceptance_criteria_total: criteria.length,
    tokens_in: sum(trace.agent_calls.map((c) => c.tokens_in)),
    tokens_out: sum(trace.agent_calls.map((c) => c.tokens_out)),
    human_minutes: sum(trace.human.map((h) => h.minutes)),
    agent_calls: trace.agent_calls.length,
  };
}

/** Calls, tokens and cost per agent role. */
export function breakdownByRole(trace: Trace): Record<string, RoleBreakdown> {
  const roles: Record<string, RoleBreakdown> = {};
  for (const call of trace.agent_calls) {
    const current = roles[call.role] ?? { calls: 0, tokens_in: 0, tokens_out: 0, cost_usd: 0 };
    roles[call.role] = {
      calls: current.calls + 1,
      tokens_in: current.tokens_in + call.tokens_in,
      tokens_out: current.tokens_out + call.tokens_out,
      cost_usd: current.cost_usd + (call.cost_usd ?? 0),
    };
  }
  // Costs reported apart from model calls (a sandbox, a paid API) belong to their role too.
  for (const cost of trace.costs ?? []) {
    const role = cost.role ?? 'other';
    const current = roles[role] ?? { calls: 0, tokens_in: 0, tokens_out: 0, cost_usd: 0 };
    roles[role] = { ...current, cost_usd: current.cost_usd + cost.cost_usd };
  }
  return roles;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
