import type { MetricResult } from '../core/experiment.ts';

/**
 * Formats numbers in a metric's own unit, so that an interval, a threshold and the value read
 * alike: `80.0%  ±6.2%  [67.6%, 92.4%]`, `1.234 s`, `$0.0120`.
 */

type MetricUnit = Pick<MetricResult, 'formatted_value' | 'unit'>;

/** Rates are stored as 0..1 and shown as percentages; a metric says so by unit or formatting. */
export function isPercentMetric(metric: MetricUnit): boolean {
  return metric.unit === '%' || metric.unit === 'percent' || metric.formatted_value.trim().endsWith('%');
}

function plain(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return value.toFixed(0);
  if (abs >= 100) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2).replace(/\.?0+$/, '');
  if (abs === 0) return '0';
  return value.toPrecision(3).replace(/\.?0+$/, '');
}

/** One number in the metric's unit (null -> "n/a"). */
export function formatMetricNumber(metric: MetricUnit, value: number | null): string {
  if (value === null) return 'n/a';
  if (isPercentMetric(metric)) return `${(value * 100).toFixed(1)}%`;
  switch (metric.unit) {
    case undefined:
    case '':
      return plain(value);
    case 'USD':
    case 'usd':
    case '$':
      return `$${value.toFixed(4)}`;
    default:
      return `${plain(value)} ${metric.unit}`;
  }
}

export interface MetricCells {
  readonly name: string;
  readonly value: string;
  /** `±6.2%`: the standard error, or '' without one. */
  readonly margin: string;
  /** `[67.6%, 92.4%]`, or ''. */
  readonly interval: string;
  readonly n: string;
}

/** The cells of a metric row, shared by the console and markdown reporters. */
export function metricCells(metric: MetricResult): MetricCells {
  return {
    name: metric.name,
    value: metric.value === null ? 'n/a' : metric.formatted_value || formatMetricNumber(metric, metric.value),
    // `value ± standard error`, then the 95% interval (about value ± 2 s.e.), as papers write it.
    margin:
      metric.value === null || metric.stderr === null ? '' : `±${formatMetricNumber(metric, metric.stderr)}`,
    interval:
      metric.ci95 === null || metric.value === null
        ? ''
        : `[${formatMetricNumber(metric, metric.ci95[0])}, ${formatMetricNumber(metric, metric.ci95[1])}]`,
    n: `n=${metric.n}`,
  };
}
