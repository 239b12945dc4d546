import { errorMessage } from '../core/errors.ts';
import { type MetricResult, MetricResultSchema } from '../core/experiment.ts';
import type { MetricRef } from '../core/plugin-ref.ts';
import { emptyResult } from './aggregate.ts';
import { defaultMetricRegistry, type MetricRegistry, type MetricSpec } from './registry.ts';
import type { MetricInput, MetricV1 } from './types.ts';

/**
 * The metrics a run reports when its suite names none: the outcome, latency, token and cost
 * metrics; pass@k and pass^k with k = epochs when epochs > 1; one mean score per evaluator seen;
 * and the seed-004 process metrics when any record carries a trace or criteria.
 */
export function defaultMetrics(input: MetricInput): MetricRef[] {
  const names = [
    'success_rate',
    'success_rate_completed',
    'accuracy',
    'error_rate',
    'agent_latency',
    'agent_latency_p50',
    'agent_latency_p95',
    'trial_duration',
    'tokens_in',
    'tokens_out',
    'cost',
    'cost_per_task',
    'cost_per_success',
  ];
  const refs: MetricRef[] = names.map((name) => ({ name, options: {} }));
  if (input.epochs > 1) {
    refs.push(
      { name: 'pass_at_k', options: { k: input.epochs } },
      { name: 'pass_hat_k', options: { k: input.epochs } },
      { name: 'flaky_tasks', options: {} },
    );
  }
  const evaluators = new Set(input.records.flatMap((r) => r.evaluations.map((e) => e.evaluator)));
  for (const evaluator of evaluators) refs.push({ name: 'evaluator_score', options: { evaluator } });
  const hasProcess = input.records.some(
    (r) =>
      r.criteria.length > 0 ||
      r.trace.agent_calls.length > 0 ||
      r.trace.prompts.length > 0 ||
      r.trace.human.length > 0 ||
      r.trace.circuit_breakers.length > 0,
  );
  if (hasProcess) {
    for (const name of [
      'prompts_unplanned',
      'prompts_total',
      'hitl_unplanned',
      'hitl_total',
      'first_pass_approval_rate',
      'human_time_min',
      'circuit_breakers',
      'overall_score',
      'functional_completeness',
    ]) {
      refs.push({ name, options: {} });
    }
  }
  return refs;
}

/** A plugin's result checked against the schema, so a buggy metric cannot store NaN. */
function checked(metric: MetricV1, result: MetricResult): MetricResult {
  const parsed = MetricResultSchema.safeParse(result);
  const finite =
    parsed.success &&
    (parsed.data.value === null || Number.isFinite(parsed.data.value)) &&
    (parsed.data.stderr === null || Number.isFinite(parsed.data.stderr)) &&
    (parsed.data.ci95 === null || parsed.data.ci95.every(Number.isFinite));
  if (parsed.success && finite) return parsed.data;
  return emptyResult(
    { name: metric.name, direction: metric.direction, description: '', unit: 'count' },
    { error: 'the metric returned an invalid result (NaN, Infinity or a wrong shape)' },
  );
}

/**
 * Runs each metric over the input. Unknown names and bad options throw before anything runs
 * (`HarnessEvalError('invalid_config')`); a metric that throws while calculating gives "n/a" with
 * the error in `details.error`, so one broken plugin cannot lose a finished run.
 */
export function computeMetrics(
  specs: readonly MetricSpec[],
  input: MetricInput,
  registry: MetricRegistry = defaultMetricRegistry,
): MetricResult[] {
  const metrics = specs.map((spec) => registry.create(spec));
  return metrics.map((metric) => {
    try {
      return checked(metric, metric.calculate(input));
    } catch (error) {
      return emptyResult(
        { name: metric.name, direction: metric.direction, description: '', unit: 'count' },
        { error: errorMessage(error) },
      );
    }
  });
}
