import type { Direction } from '../core/experiment.ts';

/** Differences smaller than this (relative to the values) are float noise, not a change. */
const EPSILON = 1e-12;

export interface DeltaValues {
  readonly delta: number | null;
  readonly percent: number | null;
  readonly percent_label: string;
  readonly is_improvement: boolean;
  readonly is_regression: boolean;
}

/** "+59.5%", "-17.1%", "0.0%". */
export function formatPercent(percent: number): string {
  const rounded = Math.abs(percent) < 0.05 ? 0 : percent;
  return `${rounded > 0 ? '+' : rounded < 0 ? '-' : ''}${Math.abs(rounded).toFixed(1)}%`;
}

/**
 * The change from `baseline` to `value`, direction-aware (a drop in cost is an improvement) and
 * safe at zero: with a baseline of 0 the relative change is undefined, so `percent` is null and
 * the label reads "new" (or "0.0%" when both are 0); a missing value gives "n/a".
 *
 * @example metricDelta(14.32, 11.87, 'lower_is_better') // percent -17.1, is_improvement true
 */
export function metricDelta(
  baseline: number | null,
  value: number | null,
  direction: Direction,
): DeltaValues {
  if (baseline === null || value === null || !Number.isFinite(baseline) || !Number.isFinite(value)) {
    return { delta: null, percent: null, percent_label: 'n/a', is_improvement: false, is_regression: false };
  }
  const raw = value - baseline;
  const delta = Math.abs(raw) <= EPSILON * Math.max(1, Math.abs(baseline), Math.abs(value)) ? 0 : raw;
  const better =
    direction === 'higher_is_better' ? delta > 0 : direction === 'lower_is_better' ? delta < 0 : false;
  const worse =
    direction === 'higher_is_better' ? delta < 0 : direction === 'lower_is_better' ? delta > 0 : false;
  if (baseline === 0) {
    return {
      delta,
      percent: delta === 0 ? 0 : null,
      percent_label: delta === 0 ? formatPercent(0) : 'new',
      is_improvement: better,
      is_regression: worse,
    };
  }
  const percent = (delta / Math.abs(baseline)) * 100;
  return {
    delta,
    percent,
    percent_label: formatPercent(percent),
    is_improvement: better,
    is_regression: worse,
  };
}

/**
 * How much worse `value` is than `baseline`, as a fraction of |baseline| (0.05 = 5% worse);
 * negative when better, 0 for neutral metrics. A zero baseline that got worse is +Infinity:
 * any relative limit is exceeded (the caller words it; it is never stored).
 */
export function relativeWorsening(baseline: number, value: number, direction: Direction): number {
  const worse =
    direction === 'higher_is_better'
      ? baseline - value
      : direction === 'lower_is_better'
        ? value - baseline
        : 0;
  if (Math.abs(worse) <= EPSILON * Math.max(1, Math.abs(baseline), Math.abs(value))) return 0;
  if (baseline === 0) return worse > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return worse / Math.abs(baseline);
}
