import type { MetricResult } from '../../core/experiment.ts';
import { formatMetricNumber, formatMetricValue } from '../../metrics/format.ts';

/** A number with up to `digits` significant digits, without exponent noise for everyday sizes. */
export function formatNumber(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  return String(Number(value.toPrecision(digits)));
}

export function formatSeconds(seconds: number): string {
  if (seconds === 0) return '0 s';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 120) return `${formatNumber(seconds)} s`;
  return `${formatNumber(seconds / 60)} min`;
}

/** Dollars by the one rule of `metrics/format.ts` ($12.50, $0.0123, $0.000312). */
export function formatUsd(usd: number | null | undefined): string {
  return usd === null || usd === undefined ? 'n/a' : formatMetricValue(usd, 'usd');
}

export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined ? 'n/a' : score.toFixed(3);
}

/** A standard error or interval end in the metric's unit, by the one rule of `metrics/format.ts`. */
export function formatLikeMetric(metric: MetricResult, quantity: number): string {
  return formatMetricNumber(metric, quantity);
}
