import type { Experiment } from '../../src/core/experiment.ts';
import type { MetricSpec } from '../../src/metrics/registry.ts';
import { experimentOf, type TrialSpec } from './comparison.ts';
import { referenceCase, type TrialValues } from './stats-reference.ts';

/**
 * Experiments A and B built from a reference case's trial values, so that the CLI can be run on
 * them and its numbers checked against scipy/statsmodels. Each metric of the case sets one field
 * of the trials: `success_rate` the verdict, `accuracy` (and `accuracy_*`) the evaluator score,
 * `latency` the agent latency, `cost_per_task` the cost, any other name an evaluator of that name.
 */
function trialsOf(metrics: Record<string, TrialValues>): TrialSpec[] {
  const trials = new Map<string, TrialSpec & { task: string; epoch: number }>();
  for (const [metric, values] of Object.entries(metrics)) {
    for (const [task, xs] of Object.entries(values)) {
      xs.forEach((x, epoch) => {
        const key = `${task}#${epoch}`;
        const t = trials.get(key) ?? { task, epoch };
        let next: TrialSpec & { task: string; epoch: number };
        if (metric === 'success_rate') next = { ...t, pass: x === 1, score: x };
        else if (metric.startsWith('accuracy')) next = { ...t, score: x, pass: x >= 0.5 };
        else if (metric === 'latency') next = { ...t, latency: x };
        else if (metric === 'cost_per_task') next = { ...t, cost: x };
        else next = { ...t, evaluators: { ...t.evaluators, [metric]: x } };
        trials.set(key, next);
      });
    }
  }
  return [...trials.values()];
}

export function referenceExperiments(
  name: string,
  options: { readonly metric?: string; readonly metrics?: readonly MetricSpec[] } = {},
): { a: Experiment; b: Experiment } {
  const c = referenceCase(name);
  const chosen = Object.fromEntries(
    Object.entries(c.metrics ?? {}).filter(([m]) => options.metric === undefined || m === options.metric),
  );
  const side = (key: 'a' | 'b') => Object.fromEntries(Object.entries(chosen).map(([m, v]) => [m, v[key]]));
  const common = {
    ...(c.clusters ? { clusters: c.clusters } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  };
  return {
    a: experimentOf(`${name}-a`, trialsOf(side('a')), {
      ...common,
      version: '1.0.0',
      createdAt: '2026-02-01T00:00:00.000Z',
    }),
    b: experimentOf(`${name}-b`, trialsOf(side('b')), {
      ...common,
      version: '1.1.0',
      createdAt: '2026-02-02T00:00:00.000Z',
    }),
  };
}
