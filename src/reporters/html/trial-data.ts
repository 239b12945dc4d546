import { outputText } from '../../core/agent-output.ts';
import type { Annotation } from '../../core/annotation.ts';
import type { RunRecord } from '../../core/run-record.ts';
import { type Truncated, truncateText } from './escape.ts';
import { annotationData } from './sections/annotations.ts';
import { trialDiff } from './trial-diff.ts';

/** Agent output kept per trial; the rest is cut with a note so one runaway output cannot bloat the page. */
export const OUTPUT_LIMIT = 20_000;
/** Limit for every other piece of agent or tool text (tool arguments and results, explanations). */
export const TEXT_LIMIT = 4_000;

function short(text: string): string {
  const cut = truncateText(text, TEXT_LIMIT);
  return cut.omitted > 0 ? `${cut.text} … (${cut.omitted} more characters)` : cut.text;
}

function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

export interface RoleRow {
  role: string;
  calls: number;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number | null;
}

/** The record's own per-role breakdown, or one summed from the trace when the runner left it empty. */
function rolesOf(record: RunRecord): RoleRow[] {
  const stored = Object.entries(record.by_role);
  if (stored.length > 0) return stored.map(([role, r]) => ({ role, ...r }));
  const byRole = new Map<string, RoleRow>();
  for (const call of record.trace.agent_calls) {
    const row = byRole.get(call.role) ?? {
      role: call.role,
      calls: 0,
      tokens_in: 0,
      tokens_out: 0,
      cost_usd: null,
    };
    row.calls += 1;
    row.tokens_in += call.tokens_in;
    row.tokens_out += call.tokens_out;
    if (call.cost_usd !== undefined) row.cost_usd = (row.cost_usd ?? 0) + call.cost_usd;
    byRole.set(call.role, row);
  }
  return [...byRole.values()];
}

/** The first reason a trial did not pass: a failed evaluation, a failed criterion, or the error. */
export function firstFailure(record: RunRecord): string {
  const evaluation = record.evaluations.find((e) => !e.passed || e.error !== undefined);
  if (evaluation) return `${evaluation.evaluator}: ${evaluation.error ?? evaluation.explanation}`;
  const criterion = record.criteria.find((c) => c.status === 'failed' || c.status === 'error');
  if (criterion) return `${criterion.id}: ${criterion.explanation || criterion.status}`;
  return record.error ?? record.output.error ?? '';
}

/** What the client script shows for one trial (with its annotations): plain JSON, text already cut to size. */
export function trialData(record: RunRecord, annotations: readonly Annotation[] = []) {
  // Structured output is pretty-printed: the trace view is read by people.
  const text =
    typeof record.output.output === 'string' ? outputText(record.output) : json(record.output.output ?? '');
  const output: Truncated = truncateText(text, OUTPUT_LIMIT);
  const error = record.error ?? record.output.error;
  return {
    run_id: record.run_id,
    task_id: record.task_id,
    epoch: record.epoch,
    outcome: record.outcome,
    attempts: record.attempts,
    duration_seconds: record.duration_seconds,
    cost_usd: record.cost_usd,
    unpriced_calls: record.output.usage.unpriced_calls ?? 0,
    output,
    // Beside the output: what the harness was asked, and what it was checked against.
    input: record.input === undefined ? null : truncateText(json(record.input), TEXT_LIMIT),
    expected: record.expected === undefined ? null : truncateText(json(record.expected), TEXT_LIMIT),
    error: error === undefined ? null : short(error),
    // What the harness changed against the task's starter codebase (as graders see it).
    workspace_diff: record.workspace_diff === undefined ? null : trialDiff(record.workspace_diff),
    evaluations: record.evaluations.map((e) => ({
      evaluator: e.evaluator,
      score: e.score,
      passed: e.passed,
      explanation: short(e.explanation),
      error: e.error === undefined ? null : short(e.error),
    })),
    criteria: record.criteria.map((c) => ({
      id: c.id,
      verification: c.verification,
      status: c.status,
      score: c.score,
      explanation: short(c.explanation),
      output_tail: c.output_tail === undefined ? null : short(c.output_tail),
      grades: c.grades.map((g) => ({ ...g, rationale: short(g.rationale) })),
    })),
    by_role: rolesOf(record),
    agent_calls: record.trace.agent_calls.map((a) => ({
      role: a.role,
      model: a.model ?? null,
      tokens_in: a.tokens_in,
      tokens_out: a.tokens_out,
      cost_usd: a.cost_usd ?? null,
      duration_seconds: a.duration_seconds ?? null,
      error: a.error === undefined ? null : short(a.error),
    })),
    agent_invocations: record.trace.agent_invocations.map((a) => ({
      name: short(a.name),
      duration_seconds: a.duration_seconds ?? null,
      error: a.error === undefined ? null : short(a.error),
    })),
    tool_calls: record.output.tool_calls.map((t) => ({
      tool_name: t.tool_name,
      status: t.status,
      duration: t.duration ?? null,
      args: truncateText(json(t.args), TEXT_LIMIT),
      result: t.result === undefined ? null : truncateText(json(t.result), TEXT_LIMIT),
    })),
    prompts: record.trace.prompts.map((p) => ({ ...p, text: p.text === undefined ? null : short(p.text) })),
    human: record.trace.human.map((h) => ({ ...h, note: h.note === undefined ? null : short(h.note) })),
    circuit_breakers: record.trace.circuit_breakers.map((b) => ({
      type: short(b.type),
      trigger: b.trigger === undefined ? null : short(b.trigger),
      resolution: b.resolution === undefined ? null : short(b.resolution),
    })),
    malformed_events: record.trace.malformed_events.map((m) => ({ line: m.line, error: short(m.error) })),
    annotations: annotations.map(annotationData),
  };
}
export type TrialData = ReturnType<typeof trialData>;
