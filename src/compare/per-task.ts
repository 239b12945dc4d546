import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import { defaultMetricRegistry, type MetricRegistry } from '../metrics/registry.ts';
import type { MetricInput, MetricV1 } from '../metrics/types.ts';

/** The metric input an experiment was computed from: its records, suite tasks and epochs. */
export function metricInput(
  experiment: Experiment,
  records: readonly RunRecord[] = experiment.records,
): MetricInput {
  return { records, tasks: experiment.suite.tasks, epochs: experiment.settings.epochs };
}

/**
 * The metric instance behind a stored result name: `success_rate`, `pass@3`,
 * `evaluator_score:regex`. Undefined for names the registry does not know (a plugin not loaded
 * here): those metrics are compared by value only.
 */
export function metricForResult(
  name: string,
  registry: MetricRegistry = defaultMetricRegistry,
): MetricV1 | undefined {
  const scored = /^evaluator_score:(.+)$/.exec(name);
  const spec = scored ? { name: 'evaluator_score', options: { evaluator: scored[1] } } : name;
  try {
    return registry.create(spec);
  } catch {
    return undefined;
  }
}

/** Task id -> the metric's mean over that task's epochs; undefined when the metric has no per-task form. */
export function perTaskValues(
  metric: MetricV1 | undefined,
  experiment: Experiment,
): ReadonlyMap<string, number> | undefined {
  if (metric?.perTask === undefined) return undefined;
  try {
    return metric.perTask(metricInput(experiment));
  } catch {
    return undefined;
  }
}

/** Task id -> cluster, from the suite tasks of all the experiments (the first that names one wins). */
export function clusterMap(experiments: readonly Experiment[]): Map<string, string | undefined> {
  const clusters = new Map<string, string | undefined>();
  for (const experiment of experiments) {
    for (const task of experiment.suite.tasks) {
      if (task.cluster !== undefined && clusters.get(task.id) === undefined)
        clusters.set(task.id, task.cluster);
    }
  }
  return clusters;
}
