import { HarnessEvalError } from '../core/errors.ts';
import type { Direction, Experiment, MetricResult } from '../core/experiment.ts';
import type { Threshold } from '../core/suite.ts';
import type { MetricRegistry } from '../metrics/registry.ts';
import type { MetricV1 } from '../metrics/types.ts';
import { mcnemarExact } from '../stats/mcnemar.ts';
import { comparePaired } from '../stats/significance.ts';
import { metricDelta } from './delta.ts';
import { flippedTasks } from './flips.ts';
import { experimentLabels, orderMetricNames } from './labels.ts';
import { clusterMap, metricForResult, metricInput, perTaskValues } from './per-task.ts';
import { checkRegressions } from './regression.ts';
import type {
  ComparedExperiment,
  Comparison,
  MetricComparison,
  MetricDelta,
  MetricValue,
  PairComparison,
} from './types.ts';

export interface CompareOptions {
  /** Metric names (as stored: `success_rate`, `pass@3`); default the union of the experiments' metrics. */
  readonly metrics?: readonly string[];
  /** Significance level of the paired tests, default 0.05. */
  readonly alpha?: number;
  /** Regression rules checked on each candidate (`comparison.violations`). */
  readonly thresholds?: Readonly<Record<string, Threshold>>;
  readonly registry?: MetricRegistry;
}

/** Metrics whose per-task value is a pass rate: McNemar's exact test applies to their verdicts. */
const PASS_FAIL_METRICS = new Set(['success_rate']);

function describe(experiment: Experiment, label: string): ComparedExperiment {
  return {
    id: experiment.id,
    label,
    harness: { name: experiment.harness.name, version: experiment.harness.version },
    suite: { id: experiment.suite.id, ...(experiment.suite.hash ? { hash: experiment.suite.hash } : {}) },
    created_at: experiment.created_at,
    status: experiment.status,
    tasks: new Set(experiment.records.map((r) => r.task_id)).size,
    epochs: experiment.settings.epochs,
  };
}

/** The stored result, or — for a metric the experiment did not store — computed from its records. */
function resultFor(
  experiment: Experiment,
  name: string,
  metric: MetricV1 | undefined,
): MetricResult | undefined {
  const stored = experiment.metrics.find((m) => m.name === name);
  if (stored !== undefined || metric === undefined) return stored;
  try {
    return metric.calculate(metricInput(experiment));
  } catch {
    return undefined;
  }
}

function metricValue(result: MetricResult | undefined): MetricValue {
  if (result === undefined) return { value: null, formatted_value: 'n/a', n: 0, ci95: null };
  return { value: result.value, formatted_value: result.formatted_value, n: result.n, ci95: result.ci95 };
}

function warningsFor(experiments: readonly Experiment[], pairs: readonly PairComparison[]): string[] {
  const warnings: string[] = [];
  const [a] = experiments;
  if (a === undefined) return warnings;
  for (const e of experiments.slice(1)) {
    if (e.suite.id !== a.suite.id) {
      warnings.push(
        `${e.id} ran suite "${e.suite.id}", ${a.id} ran "${a.suite.id}": the metrics may not be comparable`,
      );
    } else if (a.suite.hash && e.suite.hash && a.suite.hash !== e.suite.hash) {
      warnings.push(
        `${e.id} ran a different version of suite "${e.suite.id}" (hash ${e.suite.hash.slice(0, 12)} vs ${a.suite.hash.slice(0, 12)})`,
      );
    }
  }
  for (const e of experiments) {
    if (e.status !== 'completed')
      warnings.push(`${e.id} is ${e.status}: its metrics cover only the trials that finished`);
  }
  for (const pair of pairs) {
    if (pair.shared_tasks === 0) {
      warnings.push(`${pair.experiment_id} and ${pair.baseline_id} share no task: no paired statistics`);
    } else if (pair.only_in_baseline.length + pair.only_in_candidate.length > 0) {
      warnings.push(
        `${pair.experiment_id} vs ${pair.baseline_id}: paired over ${pair.shared_tasks} shared tasks ` +
          `(${pair.only_in_baseline.length} only in the baseline, ${pair.only_in_candidate.length} only in the candidate)`,
      );
    }
  }
  return warnings;
}

/**
 * Compares experiments: A (the first) is the baseline, each further one a candidate. Per metric:
 * each value, the direction-aware change against A, and the paired test over the tasks both ran
 * (per-task means over epochs; clustered when tasks carry a cluster), with McNemar's exact test for
 * success_rate and, when not significant, the minimum detectable effect and tasks needed.
 *
 * @example const c = compareExperiments([v031, v040]); c.metrics[0].deltas[0].percent_label // "-37.8%"
 */
export function compareExperiments(
  experiments: readonly Experiment[],
  options: CompareOptions = {},
): Comparison {
  const [baseline] = experiments;
  if (baseline === undefined || experiments.length < 2) {
    throw new HarnessEvalError(
      'usage',
      'a comparison needs at least two experiments (a baseline and a candidate)',
    );
  }
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new HarnessEvalError('usage', `alpha must be in (0, 1), got ${alpha}`);
  const candidates = experiments.slice(1);
  const names = options.metrics ?? orderMetricNames(experiments.flatMap((e) => e.metrics.map((m) => m.name)));
  const clusters = clusterMap(experiments);
  const flips = candidates.map((c) => flippedTasks(baseline, c));

  const metrics: MetricComparison[] = names.map((name) => {
    const metric = metricForResult(name, options.registry);
    const results = experiments.map((e) => resultFor(e, name, metric));
    const known = results.find((r) => r !== undefined);
    const direction: Direction = known?.direction ?? metric?.direction ?? 'neutral';
    const unit = known?.unit;
    const values = results.map(metricValue);
    const perTaskA = perTaskValues(metric, baseline);
    const deltas: MetricDelta[] = candidates.map((candidate, i) => {
      const base = values[0]?.value ?? null;
      const value = values[i + 1]?.value ?? null;
      const perTaskB = perTaskValues(metric, candidate);
      let paired: MetricDelta['paired'] = null;
      if (perTaskA !== undefined && perTaskB !== undefined) {
        const stats = comparePaired(perTaskA, perTaskB, { clusters, alpha });
        const counts = flips[i]?.counts;
        paired =
          stats.n === 0
            ? null
            : {
                ...stats,
                mcnemar: PASS_FAIL_METRICS.has(name) && counts ? mcnemarExact(counts.b, counts.c) : null,
              };
      }
      return {
        experiment_id: candidate.id,
        baseline_value: base,
        value,
        ...metricDelta(base, value, direction),
        paired,
      };
    });
    return { name, direction, ...(unit === undefined ? {} : { unit }), values, deltas };
  });

  const pairs: PairComparison[] = candidates.map((candidate, i) => {
    const tasksA = new Set(baseline.records.map((r) => r.task_id));
    const tasksB = new Set(candidate.records.map((r) => r.task_id));
    const flip = flips[i];
    return {
      baseline_id: baseline.id,
      experiment_id: candidate.id,
      shared_tasks: [...tasksA].filter((t) => tasksB.has(t)).length,
      only_in_baseline: [...tasksA].filter((t) => !tasksB.has(t)),
      only_in_candidate: [...tasksB].filter((t) => !tasksA.has(t)),
      regressions: flip?.regressions ?? [],
      improvements: flip?.improvements ?? [],
    };
  });

  const labels = experimentLabels(experiments);
  const comparison: Omit<Comparison, 'violations'> = {
    experiments: experiments.map((e, i) => describe(e, labels[i] ?? e.id)),
    alpha,
    metrics,
    pairs,
    warnings: warningsFor(experiments, pairs),
  };
  return {
    ...comparison,
    violations: options.thresholds ? checkRegressions(comparison, options.thresholds) : [],
  };
}
