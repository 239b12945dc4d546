import { errorMessage } from '../core/errors.ts';
import { type MetricResult, MetricResultSchema } from '../core/experiment.ts';
import type { MetricRef } from '../core/plugin-ref.ts';
import type { RunRecord } from '../core/run-record.ts';
import { emptyResult } from './aggregate.ts';
import { defaultMetricRegistry, type MetricRegistry, type MetricSpec } from './registry.ts';
import type { MetricInput, MetricV1 } from './types.ts';

/**
 * The metrics a run reports when its suite names none: the outcome, latency, token and cost
 * metrics; pass@k and pass^k with k = epochs when epochs > 1; one mean score per evaluator seen;
 * and the seed-004 process metrics when any record carries a trace or criteria.
 */
export function defaultMetrics(input: MetricInput): MetricRef[] {
  const seen = new DefaultMetricsTally();
  for (const record of input.records) seen.add(record);
  return seen.refs(input.epochs);
}

const BASE_DEFAULTS = [
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

const PROCESS_DEFAULTS = [
  'prompts_unplanned',
  'prompts_total',
  'hitl_unplanned',
  'hitl_total',
  'first_pass_approval_rate',
  'human_time_min',
  'circuit_breakers',
  'overall_score',
  'functional_completeness',
];

/** What the default choice of metrics reads of the records, one record at a time. */
export class DefaultMetricsTally {
  /** Evaluators in first-seen order. */
  readonly evaluators = new Set<string>();
  traced = false;

  /** Adds a record; returns the evaluators it is the first to name. */
  add(record: RunRecord): string[] {
    const fresh: string[] = [];
    for (const e of record.evaluations) {
      if (this.evaluators.has(e.evaluator)) continue;
      this.evaluators.add(e.evaluator);
      fresh.push(e.evaluator);
    }
    if (!this.traced)
      this.traced =
        record.criteria.length > 0 ||
        record.trace.agent_calls.length > 0 ||
        record.trace.prompts.length > 0 ||
        record.trace.human.length > 0 ||
        record.trace.circuit_breakers.length > 0;
    return fresh;
  }

  refs(epochs: number): MetricRef[] {
    return [
      ...defaultCandidates(epochs, false),
      ...[...this.evaluators].map((evaluator) => evaluatorRef(evaluator)),
      ...(this.traced ? PROCESS_DEFAULTS.map((name) => ({ name, options: {} })) : []),
    ];
  }
}

export function evaluatorRef(evaluator: string): MetricRef {
  return { name: 'evaluator_score', options: { evaluator } };
}

/**
 * The defaults that do not depend on evaluators: with `process`, the process metrics too (what a
 * run folding its records prepares before it knows whether any record is traced).
 */
export function defaultCandidates(epochs: number, process: boolean): MetricRef[] {
  const refs: MetricRef[] = BASE_DEFAULTS.map((name) => ({ name, options: {} }));
  if (epochs > 1) {
    refs.push(
      { name: 'pass_at_k', options: { k: epochs } },
      { name: 'pass_hat_k', options: { k: epochs } },
      { name: 'flaky_tasks', options: {} },
    );
  }
  if (process) for (const name of PROCESS_DEFAULTS) refs.push({ name, options: {} });
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
  return metrics.map((metric) => safeResult(metric, () => metric.calculate(input)));
}

/** A metric's result, checked; a throw becomes "n/a" with the error in `details.error`. */
export function safeResult(metric: MetricV1, compute: () => MetricResult): MetricResult {
  try {
    return checked(metric, compute());
  } catch (error) {
    return failedResult(metric, error);
  }
}

export function failedResult(metric: MetricV1, error: unknown): MetricResult {
  return emptyResult(
    { name: metric.name, direction: metric.direction, description: '', unit: 'count' },
    { error: errorMessage(error) },
  );
}
