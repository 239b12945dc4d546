import type { MetricResult } from '../core/experiment.ts';

/**
 * Formats numbers in a metric's own unit, so that an interval, a threshold and the value read
 * alike: `80.0%  ±6.2%  [67.6%, 92.4%]`, `1.234 s`, `$0.0120`.
 */

type MetricUnit = Pick<MetricResult, 'formatted_value' | 'unit'>;

/** Rates are stored as 0..1 and shown as percentages; a metric says so by unit or formatting. */
export function isPercentMetric(metric: MetricUnit): boolean {
  return (
    metric.unit === 'ratio' ||
    metric.unit === '%' ||
    metric.unit === 'percent' ||
    metric.formatted_value.trim().endsWith('%')
  );
}

/** Fixed point with trailing zeros dropped: 1.50 -> "1.5", 2.00 -> "2". */
function trimmed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

function plain(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1000) return value.toFixed(0);
  if (abs >= 100) return trimmed(value, 1);
  if (abs >= 1 || abs === 0) return trimmed(value, 2);
  return value.toPrecision(3).replace(/\.?0+$/, '');
}

function dollars(value: number): string {
  const abs = Math.abs(value);
  const text = abs >= 1 || abs === 0 ? abs.toFixed(2) : abs >= 0.0001 ? abs.toFixed(4) : abs.toPrecision(2);
  return `${value < 0 ? '-' : ''}$${text}`;
}

/**
 * One number in the metric's unit (null -> "n/a"). Knows the units the metrics write
 * (`ratio`, `seconds`, `usd`, `tokens`, `count`, `minutes`, `score`); any other unit is appended.
 */
export function formatMetricNumber(metric: MetricUnit, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return 'n/a';
  if (isPercentMetric(metric)) return `${(value * 100).toFixed(1)}%`;
  switch (metric.unit) {
    case undefined:
    case '':
    case 'count':
      return plain(value);
    case 'seconds':
    case 's':
      return `${plain(value)}s`;
    case 'usd':
    case 'USD':
    case '$':
      return dollars(value);
    case 'tokens':
      return trimmed(value, Math.abs(value) >= 100 ? 0 : 1);
    case 'minutes':
      return `${plain(value)} min`;
    case 'score':
      return value.toFixed(3);
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
