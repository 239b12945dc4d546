import type { Threshold } from '../core/suite.ts';
import { formatMetricNumber, formatPValue } from '../metrics/format.ts';
import { relativeWorsening } from './delta.ts';
import type { Comparison, MetricComparison, RegressionViolation } from './types.ts';

/** Values that equal a bound up to float rounding meet it (as `checkThresholds` does). */
const TOLERANCE = 1e-9;

function beyond(value: number, bound: number, side: 'below' | 'above'): boolean {
  const slack = TOLERANCE * Math.max(1, Math.abs(bound));
  return side === 'below' ? value < bound - slack : value > bound + slack;
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}

function shown(metric: MetricComparison, value: number | null): string {
  const formatted = metric.values.find((v) => v.value !== null)?.formatted_value ?? '';
  return formatMetricNumber({ formatted_value: formatted, unit: metric.unit }, value);
}

function check(
  name: string,
  threshold: Threshold,
  metric: MetricComparison | undefined,
  candidate: number,
  experimentId: string,
): RegressionViolation[] {
  const delta = metric?.deltas[candidate];
  // Absolute bounds judge the candidate's own run; a relative regression compares like with
  // like: both sides over the tasks both ran.
  const own = metric?.values[candidate + 1]?.value ?? null;
  const actual = delta?.value ?? null;
  const baseline = delta?.baseline_value ?? null;
  const base = { metric: name, experiment_id: experimentId, baseline };
  if (metric === undefined || own === null) {
    const bound = threshold.minimum ?? threshold.maximum ?? threshold.max_regression;
    if (bound === undefined) return [];
    return [
      {
        ...base,
        condition: 'missing',
        threshold: bound,
        actual: null,
        message: `${name} has no value in ${experimentId}, so its regression rule cannot be checked`,
      },
    ];
  }
  const violations: RegressionViolation[] = [];
  if (threshold.minimum !== undefined && beyond(own, threshold.minimum, 'below')) {
    violations.push({
      ...base,
      condition: 'minimum',
      threshold: threshold.minimum,
      actual: own,
      message: `${name} ${shown(metric, own)} is below the minimum ${shown(metric, threshold.minimum)}`,
    });
  }
  if (threshold.maximum !== undefined && beyond(own, threshold.maximum, 'above')) {
    violations.push({
      ...base,
      condition: 'maximum',
      threshold: threshold.maximum,
      actual: own,
      message: `${name} ${shown(metric, own)} is above the maximum ${shown(metric, threshold.maximum)}`,
    });
  }
  const limit = threshold.max_regression;
  if (limit !== undefined && baseline !== null && actual !== null) {
    const worsening = relativeWorsening(baseline, actual, metric.direction);
    // A gate on one named metric is one test: its own p, not the one adjusted for the others.
    const significant = delta?.paired?.significant_unadjusted ?? false;
    const pValue = delta?.paired?.p_value ?? null;
    if (beyond(worsening, limit, 'above') && (!threshold.require_significant || significant)) {
      const how = Number.isFinite(worsening) ? `${percent(worsening)} worse` : 'worse than a baseline of 0';
      const over =
        delta?.basis === 'shared_tasks' && delta.paired ? ` over ${delta.paired.n} shared tasks` : '';
      const test = pValue === null ? '' : `, p = ${formatPValue(pValue)} from this metric's own paired test`;
      violations.push({
        ...base,
        condition: 'max_regression',
        threshold: limit,
        actual,
        // Infinity is not JSON: a worsening from 0 is left out and the message says why.
        ...(Number.isFinite(worsening) ? { worsening } : {}),
        p_value: pValue,
        message:
          `${name} ${shown(metric, baseline)} → ${shown(metric, actual)}${over} is ${how} ` +
          `(allowed: ${percent(limit)}${threshold.require_significant ? ', significant regressions only' : ''}${test})`,
      });
    }
  }
  return violations;
}

/**
 * The regression rules each candidate breaks: absolute `minimum` / `maximum` on its value;
 * `max_regression`, relative to the baseline over the tasks both ran and direction-aware (0.05:
 * at most 5% worse; for a lower-is-better metric "worse" is higher); with `require_significant:
 * true` a max_regression counts only when the metric's own paired test (unadjusted: the gate is
 * one test) says the change is significant. Absolute bounds always count.
 * A rule on a metric without a value is a `missing` violation: a gate that cannot be checked
 * must not pass silently. Neutral metrics never regress.
 *
 * @example checkRegressions(comparison, { success_rate: { max_regression: 0.05, require_significant: true } })
 */
export function checkRegressions(
  comparison: Pick<Comparison, 'experiments' | 'metrics'>,
  thresholds: Readonly<Record<string, Threshold>>,
): RegressionViolation[] {
  const byName = new Map(comparison.metrics.map((m) => [m.name, m]));
  const candidates = comparison.experiments.slice(1);
  return Object.entries(thresholds).flatMap(([name, threshold]) =>
    candidates.flatMap((candidate, i) => check(name, threshold, byName.get(name), i, candidate.id)),
  );
}
