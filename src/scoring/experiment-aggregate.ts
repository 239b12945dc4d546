import type { Experiment, MetricResult, ThresholdViolation } from '../core/experiment.ts';
import { type OverallScore, overallScore } from '../core/overall-score.ts';
import type { MetricRef } from '../core/plugin-ref.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { Suite } from '../core/suite.ts';
import type { Task } from '../core/task.ts';
import { isBuiltinMetric, parseMetricAlias } from '../metrics/catalog.ts';
import { computeMetrics, defaultMetrics } from '../metrics/compute.ts';
import type { MetricRegistry } from '../metrics/registry.ts';
import { suiteScoreOf } from './suite-score.ts';
import { checkThresholds } from './thresholds.ts';

export interface AggregateInput {
  readonly suite: Suite;
  readonly records: readonly RunRecord[];
  readonly tasks: readonly Task[];
  readonly epochs: number;
  readonly metrics?: readonly MetricRef[] | undefined;
  /** Where metric names resolve: the run's plugin set; the default set's when absent. */
  readonly registry?: MetricRegistry | undefined;
}

export interface Aggregate {
  metrics: MetricResult[];
  scores: Record<string, number>;
  outcome: Experiment['outcome'];
  violations: ThresholdViolation[];
}

/**
 * Aggregates finished trials: metrics with intervals, the weighted suite score and its outcome,
 * and the threshold violations. Also used to recompute after human grades change records.
 */
export function aggregateExperiment(input: AggregateInput): Aggregate {
  const metricTasks = input.tasks.map((t) => ({ id: t.id, weight: t.weight, cluster: t.cluster }));
  const metricInput = { records: input.records, tasks: metricTasks, epochs: input.epochs };
  const refs = metricRefs(input.suite, input.epochs, input.metrics, () => defaultMetrics(metricInput));
  const metrics = computeMetrics(refs, metricInput, input.registry);
  return aggregateOf(metrics, overallScore(input.records, metricTasks), input.suite);
}

/**
 * The metrics an experiment reports: those asked for (the suite's, else the defaults), plus a
 * built-in a threshold names, plus pass@k and pass^k when there are several epochs.
 */
export function metricRefs(
  suite: Suite,
  epochs: number,
  metrics: readonly MetricRef[] | undefined,
  defaults: () => MetricRef[],
): MetricRef[] {
  const refs = metrics ?? (suite.metrics.length > 0 ? suite.metrics : defaults());
  // A threshold on a built-in metric that is not listed still gets computed, so it can be checked.
  const extra = Object.keys(suite.thresholds)
    .filter((name) => {
      const canonical = parseMetricAlias(name).name;
      return !refs.some((r) => parseMetricAlias(r.name).name === canonical) && isBuiltinMetric(canonical);
    })
    .map((name) => parseMetricAlias(name));
  // Several epochs exist to measure pass@k and pass^k: a listed set that names neither gets both.
  const named = [...refs, ...extra].some((r) => r.name === 'pass_at_k' || r.name === 'pass_hat_k');
  if (epochs > 1 && !named) {
    extra.push({ name: 'pass_at_k', options: { k: epochs } });
    extra.push({ name: 'pass_hat_k', options: { k: epochs } });
  }
  return [...refs, ...extra];
}

/** The suite score, its outcome and the threshold violations, from the metrics and the overall score. */
export function aggregateOf(metrics: MetricResult[], overall: OverallScore, suite: Suite): Aggregate {
  const suiteScore = suiteScoreOf(overall, suite.scoring);
  const scores: Record<string, number> = {};
  if (suiteScore.overall !== null) scores['overall'] = suiteScore.overall;
  return {
    metrics,
    scores,
    outcome: suiteScore.outcome,
    violations: checkThresholds(metrics, suite.thresholds),
  };
}
