import type { MetricResult, ThresholdViolation } from '../core/experiment.ts';
import { canonicalMetricName } from '../core/metric-names.ts';
import type { Threshold } from '../core/suite.ts';
import { formatMetricNumber } from '../metrics/format.ts';

/**
 * Metric values are sums of floats (0.1 + 0.2 ...); a value that equals its bound up to rounding
 * meets it. Relative to the bound's magnitude, with an absolute floor for bounds near zero.
 */
const TOLERANCE = 1e-9;

function below(value: number, bound: number): boolean {
  return value < bound - TOLERANCE * Math.max(1, Math.abs(bound));
}

function above(value: number, bound: number): boolean {
  return value > bound + TOLERANCE * Math.max(1, Math.abs(bound));
}

/**
 * Checks each threshold's `minimum` and `maximum` against the metric of the same name.
 * A bound on a metric that was not computed, or whose value is null (nothing to aggregate), is a
 * violation with condition `missing`: a gate that cannot be checked must not pass silently.
 * `max_regression` needs a baseline and is checked by the comparison, not here.
 *
 * @example checkThresholds(experiment.metrics, suite.thresholds) // [] when every gate holds
 */
export function checkThresholds(
  metrics: readonly MetricResult[],
  thresholds: Readonly<Record<string, Threshold>>,
): ThresholdViolation[] {
  const byName = new Map(metrics.map((m) => [m.name, m]));
  const violations: ThresholdViolation[] = [];
  for (const [name, threshold] of Object.entries(thresholds)) {
    const { minimum, maximum } = threshold;
    if (minimum === undefined && maximum === undefined) continue;
    // A threshold written under a metric's old name (`latency`) checks the renamed metric.
    const metric = byName.get(name) ?? byName.get(canonicalMetricName(name));
    if (metric === undefined || metric.value === null) {
      violations.push(missing(name, threshold, metric));
      continue;
    }
    const value = metric.value;
    const shown = formatMetricNumber(metric, value);
    if (minimum !== undefined && below(value, minimum)) {
      violations.push({
        metric: name,
        condition: 'minimum',
        threshold: minimum,
        actual: value,
        message: `${name} ${shown} is below the minimum ${formatMetricNumber(metric, minimum)}`,
      });
    }
    if (maximum !== undefined && above(value, maximum)) {
      violations.push({
        metric: name,
        condition: 'maximum',
        threshold: maximum,
        actual: value,
        message: `${name} ${shown} is above the maximum ${formatMetricNumber(metric, maximum)}`,
      });
    }
  }
  return violations;
}

function missing(name: string, threshold: Threshold, metric: MetricResult | undefined): ThresholdViolation {
  const bound = threshold.minimum ?? threshold.maximum ?? 0;
  const kind = threshold.minimum !== undefined ? 'minimum' : 'maximum';
  const shownBound = metric === undefined ? String(bound) : `${formatMetricNumber(metric, bound)}`;
  const why =
    metric === undefined
      ? `${name} was not computed (add it to the suite's metrics)`
      : `${name} has no value (n/a: nothing to aggregate, n=${metric.n})`;
  return {
    metric: name,
    condition: 'missing',
    threshold: bound,
    actual: null,
    message: `${why}, so its ${kind} ${shownBound} cannot be checked`,
  };
}
