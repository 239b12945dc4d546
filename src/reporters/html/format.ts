import type { MetricResult } from '../../core/experiment.ts';

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

export function formatUsd(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return 'n/a';
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(2)}`;
}

export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined ? 'n/a' : score.toFixed(3);
}

/**
 * Formats a quantity (a standard error, an interval end) in the same style as the metric's own
 * `formatted_value`: percentages stay percentages, dollars stay dollars.
 */
export function formatLikeMetric(metric: MetricResult, quantity: number): string {
  const shown = metric.formatted_value.trim();
  // A rate is stored as 0..1 and shown as a percentage; a value already in percent is not scaled.
  if (shown.endsWith('%')) {
    const scale = metric.value !== null && Math.abs(metric.value) > 1 ? 1 : 100;
    return `${formatNumber(quantity * scale)}%`;
  }
  if (shown.startsWith('$')) return formatUsd(quantity);
  const unit = metric.unit ? ` ${metric.unit}` : '';
  return `${formatNumber(quantity)}${unit}`;
}
