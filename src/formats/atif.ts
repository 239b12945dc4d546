import type { AgentCall, AgentInvocation, ToolCall, Trace, Usage } from '../core/agent-output.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { AtifStep, AtifTrajectory } from './atif-schema.ts';

export const ATIF_VERSION = 'ATIF-v1.7';
/** Our fields ATIF has no slot for ride in `extra.harnesseval`, so a round trip keeps them. */
const OURS = 'harnesseval';

type Extra = Record<string, unknown>;
const ours = (extra: Extra | undefined): Extra | undefined => extra?.[OURS] as Extra | undefined;
const withOurs = (fields: Extra): { extra?: Extra } => {
  const kept = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return Object.keys(kept).length === 0 ? {} : { extra: { [OURS]: kept } };
};

function callStep(call: AgentCall, step_id: number): AtifStep {
  return {
    step_id,
    source: 'agent',
    message: '',
    ...(call.at === undefined ? {} : { timestamp: call.at }),
    ...(call.model === undefined ? {} : { model_name: call.model }),
    metrics: {
      prompt_tokens: call.tokens_in,
      completion_tokens: call.tokens_out,
      cached_tokens: call.cached_tokens,
      ...(call.cost_usd === undefined ? {} : { cost_usd: call.cost_usd }),
    },
    ...withOurs({
      provider: call.provider,
      duration_seconds: call.duration_seconds,
      error: call.error,
      metadata: Object.keys(call.metadata).length === 0 ? undefined : call.metadata,
    }),
  };
}

const content = (value: unknown): string | undefined =>
  value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);

/** One trial as an ATIF v1.7 trajectory: model calls as agent steps, sub-agent roles as sub-trajectories. */
export function recordToAtif(record: RunRecord): AtifTrajectory {
  const trace = record.trace;
  const session = record.run_id;
  const steps: AtifStep[] = trace.prompts.map((p, i) => ({
    step_id: i + 1,
    source: 'user',
    message: p.text ?? '',
    ...(p.at === undefined ? {} : { timestamp: p.at }),
    ...withOurs({ prompt: p.kind, role: p.role }),
  }));
  for (const call of trace.agent_calls.filter((c) => c.role === 'agent'))
    steps.push(callStep(call, steps.length + 1));

  const subagents = subTrajectories(trace, record, session);
  const tools = record.output.tool_calls.map((t, i) => ({ ...t, id: t.id ?? `call_${i + 1}` }));
  steps.push({
    step_id: steps.length + 1,
    source: 'agent',
    message:
      typeof record.output.output === 'string' ? record.output.output : (content(record.output.output) ?? ''),
    ...(tools.length === 0
      ? {}
      : {
          tool_calls: tools.map((t) => ({
            tool_call_id: t.id,
            function_name: t.tool_name,
            arguments: t.args,
          })),
        }),
    ...(tools.length + subagents.length === 0
      ? {}
      : {
          observation: {
            results: [
              ...tools.map((t) => ({
                source_call_id: t.id,
                ...(t.result === undefined ? {} : { content: content(t.result) ?? null }),
              })),
              ...subagents.map((s) => ({
                subagent_trajectory_ref: [{ session_id: session, trajectory_id: s.trajectory_id ?? '' }],
              })),
            ],
          },
        }),
    ...withOurs({
      final: true,
      tool_calls:
        tools.length === 0
          ? undefined
          : record.output.tool_calls.map((t) => ({
              id_given: t.id !== undefined,
              status: t.status,
              duration: t.duration,
              role: t.role,
              result_type: t.result === undefined || typeof t.result === 'string' ? undefined : 'json',
            })),
    }),
  });

  const usage = record.output.usage;
  return {
    schema_version: ATIF_VERSION,
    session_id: session,
    trajectory_id: `${session}:main`,
    agent: {
      name: record.harness_config.name,
      version: record.harness_config.version,
      ...(record.harness_config.model === undefined ? {} : { model_name: record.harness_config.model }),
    },
    steps,
    ...(subagents.length === 0 ? {} : { subagent_trajectories: subagents }),
    final_metrics: {
      total_prompt_tokens: usage.tokens_in,
      total_completion_tokens: usage.tokens_out,
      total_cached_tokens: usage.cached_tokens,
      // Absent, not 0, when nobody priced the calls.
      ...(usage.cost_usd === null ? {} : { total_cost_usd: usage.cost_usd }),
      total_steps: steps.length,
      ...withOurs({
        task_id: record.task_id,
        epoch: record.epoch,
        outcome: record.outcome,
        scores: record.scores,
        latency: record.output.latency,
        error: record.output.error,
        error_kind: record.output.error_kind,
      }),
    },
    ...withOurs({
      human: trace.human.length === 0 ? undefined : trace.human,
      circuit_breakers: trace.circuit_breakers.length === 0 ? undefined : trace.circuit_breakers,
      first_pass_approval: trace.first_pass_approval,
      costs: trace.costs,
      malformed_events: trace.malformed_events.length === 0 ? undefined : trace.malformed_events,
    }),
  };
}

/** Invocations first, in their order (each takes the calls of its role), then roles nobody invoked. */
function subTrajectories(trace: Trace, record: RunRecord, session: string): AtifTrajectory[] {
  const roles = [...new Set(trace.agent_calls.map((c) => c.role).filter((r) => r !== 'agent'))];
  const claimed = new Set<string>();
  const groups: { name: string; invocation?: AgentInvocation; takesCalls: boolean }[] =
    trace.agent_invocations.map((invocation) => {
      const takesCalls = roles.includes(invocation.name) && !claimed.has(invocation.name);
      if (takesCalls) claimed.add(invocation.name);
      return { name: invocation.name, invocation, takesCalls };
    });
  for (const role of roles) if (!claimed.has(role)) groups.push({ name: role, takesCalls: true });
  return groups.map((group, i) => {
    const calls = group.takesCalls ? trace.agent_calls.filter((c) => c.role === group.name) : [];
    return {
      schema_version: ATIF_VERSION,
      session_id: session,
      trajectory_id: group.invocation?.id ?? `${session}:sub${i + 1}`,
      agent: { name: group.name, version: record.harness_config.version },
      steps: calls.map((c, j) => callStep(c, j + 1)),
      ...withOurs({
        invoked: group.invocation !== undefined,
        id_given: group.invocation?.id !== undefined,
        duration_seconds: group.invocation?.duration_seconds,
        error: group.invocation?.error,
      }),
    };
  });
}

export interface AtifIngest {
  output: string;
  tool_calls: ToolCall[];
  trace: Trace;
  usage: Usage;
  latency?: number;
  error?: string;
}

function text(message: AtifStep['message'] | undefined): string {
  if (message === undefined || message === null) return '';
  if (typeof message === 'string') return message;
  return message.map((part) => (typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

function stepCall(step: AtifStep, role: string, fallbackModel: string | undefined): AgentCall {
  const x = ours(step.extra) ?? {};
  const m = step.metrics ?? {};
  const model = step.model_name ?? fallbackModel;
  return {
    role,
    ...(model === undefined ? {} : { model }),
    ...(typeof x['provider'] === 'string' ? { provider: x['provider'] } : {}),
    tokens_in: m.prompt_tokens ?? 0,
    tokens_out: m.completion_tokens ?? 0,
    cached_tokens: m.cached_tokens ?? 0,
    ...(m.cost_usd === undefined ? {} : { cost_usd: m.cost_usd }),
    ...(typeof x['duration_seconds'] === 'number' ? { duration_seconds: x['duration_seconds'] } : {}),
    ...(step.timestamp === undefined ? {} : { at: step.timestamp }),
    ...(typeof x['error'] === 'string' ? { error: x['error'] } : {}),
    metadata: (x['metadata'] as Record<string, unknown> | undefined) ?? {},
  };
}

function toolCalls(steps: readonly AtifStep[], role: string | undefined): ToolCall[] {
  const out: ToolCall[] = [];
  for (const step of steps) {
    const results = new Map((step.observation?.results ?? []).map((r) => [r.source_call_id, r.content]));
    const extras = (ours(step.extra)?.['tool_calls'] as Extra[] | undefined) ?? [];
    (step.tool_calls ?? []).forEach((call, i) => {
      const x = extras[i] ?? {};
      const raw = results.get(call.tool_call_id);
      const result =
        x['result_type'] === 'json' && typeof raw === 'string' ? JSON.parse(raw) : (raw ?? undefined);
      const shownRole = typeof x['role'] === 'string' ? x['role'] : role;
      out.push({
        tool_name: call.function_name,
        args: call.arguments,
        ...(result === undefined ? {} : { result }),
        ...(typeof x['duration'] === 'number' ? { duration: x['duration'] } : {}),
        status: x['status'] === 'error' ? 'error' : 'success',
        ...(x['id_given'] === false ? {} : { id: call.tool_call_id }),
        ...(shownRole === undefined ? {} : { role: shownRole }),
      });
    });
  }
  return out;
}

/** Reads an ATIF trajectory (ours or any producer's) into our trace; agent steps with metrics are model calls. */
export function atifToTrace(doc: AtifTrajectory): AtifIngest {
  const root = ours(doc.extra) ?? {};
  const final = ours(doc.final_metrics?.extra) ?? {};
  const trace: Trace = {
    agent_calls: [],
    agent_invocations: [],
    prompts: [],
    human: (root['human'] as Trace['human'] | undefined) ?? [],
    circuit_breakers: (root['circuit_breakers'] as Trace['circuit_breakers'] | undefined) ?? [],
    malformed_events: (root['malformed_events'] as Trace['malformed_events'] | undefined) ?? [],
    ...(Array.isArray(root['costs']) ? { costs: root['costs'] as NonNullable<Trace['costs']> } : {}),
    ...(typeof root['first_pass_approval'] === 'boolean'
      ? { first_pass_approval: root['first_pass_approval'] }
      : {}),
  };
  const model = doc.agent.model_name;
  let output = '';
  for (const step of doc.steps) {
    const x = ours(step.extra) ?? {};
    if (step.source === 'user' && (x['prompt'] === 'planned' || x['prompt'] === 'unplanned'))
      trace.prompts.push({
        kind: x['prompt'],
        ...(typeof x['role'] === 'string' ? { role: x['role'] } : {}),
        text: text(step.message),
        ...(step.timestamp === undefined ? {} : { at: step.timestamp }),
      });
    if (step.source !== 'agent') continue;
    if (step.metrics !== undefined) trace.agent_calls.push(stepCall(step, 'agent', model));
    if (text(step.message) !== '') output = text(step.message);
  }
  const tools = toolCalls(doc.steps, undefined);
  for (const sub of doc.subagent_trajectories ?? []) {
    const x = ours(sub.extra) ?? {};
    if (x['invoked'] !== false)
      trace.agent_invocations.push({
        name: sub.agent.name,
        ...(x['id_given'] === false || sub.trajectory_id === undefined ? {} : { id: sub.trajectory_id }),
        ...(typeof x['duration_seconds'] === 'number' ? { duration_seconds: x['duration_seconds'] } : {}),
        ...(typeof x['error'] === 'string' ? { error: x['error'] } : {}),
      });
    const nested = atifToTrace({ ...sub, subagent_trajectories: [] });
    trace.agent_calls.push(...nested.trace.agent_calls.map((c) => ({ ...c, role: sub.agent.name })));
    tools.push(...toolCalls(sub.steps, sub.agent.name));
  }
  const fm = doc.final_metrics;
  const sum = (pick: (c: AgentCall) => number) => trace.agent_calls.reduce((s, c) => s + pick(c), 0);
  const priced = trace.agent_calls.filter((c) => c.cost_usd !== undefined);
  return {
    output,
    tool_calls: tools,
    trace,
    usage: {
      tokens_in: fm?.total_prompt_tokens ?? sum((c) => c.tokens_in),
      tokens_out: fm?.total_completion_tokens ?? sum((c) => c.tokens_out),
      cached_tokens: fm?.total_cached_tokens ?? sum((c) => c.cached_tokens),
      cost_usd: fm?.total_cost_usd ?? (priced.length > 0 ? sum((c) => c.cost_usd ?? 0) : null),
    },
    ...(typeof final['latency'] === 'number' ? { latency: final['latency'] } : {}),
    ...(typeof final['error'] === 'string' ? { error: final['error'] } : {}),
  };
}
