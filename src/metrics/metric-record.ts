import type { MetricRef } from '../core/plugin-ref.ts';
import type { RunRecord } from '../core/run-record.ts';
import { isBuiltinMetric, parseMetricAlias } from './catalog.ts';

// Shared by every cut record (a few objects instead of a dozen per trial); nothing reading the
// records for metrics writes to them.
const none: never[] = [];
const nothing: Record<string, never> = {};
const noHarness: RunRecord['harness_config'] = { name: '', version: '', agents: none };
const untraced: RunRecord['trace'] = {
  agent_calls: none,
  agent_invocations: none,
  prompts: none,
  human: none,
  circuit_breakers: none,
  malformed_events: none,
};

/**
 * A record cut down to what the built-in metrics, the suite score and the default metric choice
 * read, so a run of 100,000 trials can keep one per trial for its metrics without keeping its
 * outputs, traces and explanations: the numbers computed from the cut records are the numbers
 * computed from the whole ones (a seeded test holds them equal).
 *
 * Kept: task and epoch, outcome, error kinds, durations, cost, usage, process metrics, scores, each
 * evaluation's evaluator/score/passed, each criterion's id/verification/status/score. A trace
 * keeps at most one entry per kind: `defaultMetrics` asks only whether it has any.
 */
export function metricRecord(record: RunRecord): RunRecord {
  const { output, trace } = record;
  const traced =
    trace.agent_calls.length > 0 ||
    trace.prompts.length > 0 ||
    trace.human.length > 0 ||
    trace.circuit_breakers.length > 0;
  return {
    schema_version: record.schema_version,
    // Ids, times and the harness are the run's, not the metrics': blank, so no string is kept.
    run_id: '',
    task_id: record.task_id,
    epoch: record.epoch,
    attempts: record.attempts,
    harness_config: noHarness,
    timestamp: '',
    duration_seconds: record.duration_seconds,
    cost_usd: record.cost_usd,
    outcome: record.outcome,
    ...(record.error_kind === undefined ? {} : { error_kind: record.error_kind }),
    output: {
      output: null,
      latency: output.latency,
      tool_calls: none,
      usage: output.usage,
      metadata: nothing,
      ...(output.error_kind === undefined ? {} : { error_kind: output.error_kind }),
    },
    trace: traced
      ? {
          agent_calls: trace.agent_calls.slice(0, 1),
          agent_invocations: none,
          prompts: trace.prompts.slice(0, 1),
          human: trace.human.slice(0, 1),
          circuit_breakers: trace.circuit_breakers.slice(0, 1),
          malformed_events: none,
        }
      : untraced,
    evaluations:
      record.evaluations.length === 0
        ? none
        : record.evaluations.map((e) => ({
            evaluator: e.evaluator,
            score: e.score,
            passed: e.passed,
            explanation: '',
            details: nothing,
            negated: e.negated,
          })),
    criteria:
      record.criteria.length === 0
        ? none
        : record.criteria.map((c) => ({
            id: c.id,
            verification: c.verification,
            status: c.status,
            score: c.score,
            explanation: '',
            grades: none,
            details: nothing,
          })),
    metrics: record.metrics,
    by_role: nothing,
    scores: record.scores,
    metadata: nothing,
  };
}

/**
 * Whether every metric named is a built-in one: a plugin's metric may read any field of a
 * record, so a run that computes one keeps its records whole.
 */
export function builtinMetricsOnly(refs: readonly MetricRef[]): boolean {
  return refs.every((ref) => isBuiltinMetric(parseMetricAlias(ref.name).name));
}
