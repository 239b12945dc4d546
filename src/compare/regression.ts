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
  const actual = delta?.value ?? null;
  const baseline = delta?.baseline_value ?? null;
  const base = { metric: name, experiment_id: experimentId, baseline };
  if (metric === undefined || actual === null) {
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
  if (threshold.minimum !== undefined && beyond(actual, threshold.minimum, 'below')) {
    violations.push({
      ...base,
      condition: 'minimum',
      threshold: threshold.minimum,
      actual,
      message: `${name} ${shown(metric, actual)} is below the minimum ${shown(metric, threshold.minimum)}`,
    });
  }
  if (threshold.maximum !== undefined && beyond(actual, threshold.maximum, 'above')) {
    violations.push({
      ...base,
      condition: 'maximum',
      threshold: threshold.maximum,
      actual,
      message: `${name} ${shown(metric, actual)} is above the maximum ${shown(metric, threshold.maximum)}`,
    });
  }
  const limit = threshold.max_regression;
  if (limit !== undefined && baseline !== null) {
    const worsening = relativeWorsening(baseline, actual, metric.direction);
    const significant = delta?.paired?.significant ?? false;
    const pValue = delta?.paired?.p_value ?? null;
    if (beyond(worsening, limit, 'above') && (!threshold.require_significant || significant)) {
      const how = Number.isFinite(worsening) ? `${percent(worsening)} worse` : 'worse than a baseline of 0';
      const test = pValue === null ? '' : `, p = ${formatPValue(pValue)}`;
      violations.push({
        ...base,
        condition: 'max_regression',
        threshold: limit,
        actual,
        // Infinity is not JSON: a worsening from 0 is left out and the message says why.
        ...(Number.isFinite(worsening) ? { worsening } : {}),
        p_value: pValue,
        message:
          `${name} ${shown(metric, baseline)} → ${shown(metric, actual)} is ${how} ` +
          `(allowed: ${percent(limit)}${threshold.require_significant ? ', significant regressions only' : ''}${test})`,
      });
    }
  }
  return violations;
}

/**
 * The regression rules each candidate breaks: absolute `minimum` / `maximum` on its value;
 * `max_regression`, relative to the baseline and direction-aware (0.05: at most 5% worse; for a
 * lower-is-better metric "worse" is higher); with `require_significant: true` a max_regression
 * counts only when the paired test says the change is significant (absolute bounds always count).
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
