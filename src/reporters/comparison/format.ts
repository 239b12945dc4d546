import type { MetricComparison, MetricDelta } from '../../compare/types.ts';
import { formatMetricNumber } from '../../metrics/format.ts';

/** Shared by the console and markdown views, so both say the same thing the same way. */

function unitOf(metric: MetricComparison) {
  return {
    formatted_value: metric.values.find((v) => v.value !== null)?.formatted_value ?? '',
    unit: metric.unit,
  };
}

/** A difference in the metric's unit with its sign: "+0.250", "-$1.20", "+25.0%". */
export function signedValue(metric: MetricComparison, value: number | null): string {
  if (value === null) return 'n/a';
  const text = formatMetricNumber(unitOf(metric), value);
  return value > 0 ? `+${text}` : text;
}

export function formatInterval(metric: MetricComparison, interval: readonly [number, number] | null): string {
  if (interval === null) return '-';
  return `[${formatMetricNumber(unitOf(metric), interval[0])}, ${formatMetricNumber(unitOf(metric), interval[1])}]`;
}

export function formatPValue(p: number | null): string {
  if (p === null) return '-';
  if (p < 0.001) return '<0.001';
  return p.toFixed(3);
}

/**
 * What the test concluded: "significant", or for a non-significant result what this many tasks
 * could have detected ("MDE 12.0%, ~64 tasks"), so that "no difference found" is never read as
 * "no difference".
 */
export function verdictNote(metric: MetricComparison, delta: MetricDelta): string {
  const paired = delta.paired;
  if (paired === null) return 'no paired data';
  if (paired.n < 2) return `${paired.n} shared task`;
  if (paired.stderr === 0 && paired.mean_difference === 0) return 'no change on any task';
  if (paired.significant)
    return delta.is_regression
      ? 'significant regression'
      : delta.is_improvement
        ? 'significant improvement'
        : 'significant';
  const parts: string[] = [];
  if (paired.minimum_detectable_effect !== null)
    parts.push(`MDE ${formatMetricNumber(unitOf(metric), paired.minimum_detectable_effect)}`);
  if (paired.tasks_needed !== null) parts.push(`~${paired.tasks_needed} tasks needed`);
  return parts.length > 0 ? `n.s.; ${parts.join(', ')}` : 'n.s.';
}

/** "3 of 20 tasks passed in A and failed in B" -> p of McNemar's exact test, or undefined. */
export function mcnemarNote(delta: MetricDelta): string | undefined {
  const m = delta.paired?.mcnemar;
  if (!m) return undefined;
  return `McNemar exact: ${m.b} pass→fail, ${m.c} fail→pass, p = ${formatPValue(m.p_value)}`;
}

export function passRate(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}
