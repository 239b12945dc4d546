import type { MetricResult } from '../core/experiment.ts';

/**
 * The one number format of HarnessEval: every value, standard error, interval end, difference and
 * threshold of a metric is written by the rule of its unit, in every report, so that a value and
 * its error bar read alike (`80.0% ±6.2% [67.6%, 92.4%]`, `1.25s ±0.0817s`, `$0.0123`).
 *
 * - `ratio`: a percentage with one decimal; below 0.1% two significant digits (`0.012%`).
 *   A difference of two rates is in percentage points (`+5.0 pp`), never a bare `%`.
 * - `seconds`: three significant digits (`0.0327s`, `1.25s`, `12.3s`, `123s`), trailing zeros
 *   dropped (`2.5s`, `2s`).
 * - `usd`: cents from $1 up (`$12.50`); below $1 three significant digits without trailing zeros
 *   (`$0.0123`, `$0.000312`, `$0.5`), so a real change of a few percent never prints as
 *   `$0.0003 → $0.0003`.
 * - `tokens`: whole tokens from 100 up, else one decimal.
 * - `count`, `minutes`: three significant digits below 1, two decimals below 100, then fewer.
 * - `score`: three decimals; below 0.001 two significant digits.
 * Numbers within 1e-12 of zero are float noise and print as 0 (never `±$7.2e-21`), and no rule
 * ever writes an exponent. Locale-independent, so reports are byte-for-byte reproducible.
 */

/** How a metric's value is shown; also stored as `MetricResult.unit`. */
export type MetricUnit = 'ratio' | 'seconds' | 'usd' | 'tokens' | 'count' | 'minutes' | 'score';

/** Below this magnitude a number is rounding noise of sums and differences (0.3 - 0.1 - 0.2). */
const NOISE = 1e-12;

function denoise(value: number): number {
  return Math.abs(value) < NOISE ? 0 : value;
}

/** Trailing zeros of a fixed-point number dropped: 1.50 -> "1.5", 2.00 -> "2". */
function trimmed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** `digits` significant digits in fixed point (no exponent): significant(0.000312, 3) = "0.000312". */
function significant(value: number, digits: number): string {
  if (value === 0) return '0';
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.min(100, Math.max(0, digits - 1 - magnitude));
  // Rounding can carry into the next power of ten (0.000999 -> "0.00100"): recompute once.
  const text = value.toFixed(decimals);
  const rounded = Number(text);
  if (rounded !== 0 && Math.floor(Math.log10(Math.abs(rounded))) > magnitude)
    return rounded.toFixed(Math.max(0, decimals - 1));
  return text;
}

/** `significant` without trailing zeros: 0.0120 -> "0.012", 2.50 -> "2.5". */
function shortSignificant(value: number, digits: number): string {
  const text = significant(value, digits);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

function plain(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1000) return value.toFixed(0);
  if (abs >= 100) return trimmed(value, 1);
  if (abs >= 1 || abs === 0) return trimmed(value, 2);
  return shortSignificant(value, 3);
}

function percent(fraction: number): string {
  const p = fraction * 100;
  const abs = Math.abs(p);
  return abs > 0 && abs < 0.1 ? shortSignificant(p, 2) : p.toFixed(1);
}

function seconds(value: number): string {
  const abs = Math.abs(value);
  return abs >= 100 ? value.toFixed(0) : shortSignificant(value, 3);
}

function dollars(value: number): string {
  const abs = Math.abs(value);
  const text = abs >= 1 || abs === 0 ? abs.toFixed(2) : shortSignificant(abs, 3);
  return `${value < 0 ? '-' : ''}$${text}`;
}

function score(value: number): string {
  const abs = Math.abs(value);
  return abs > 0 && abs < 0.001 ? shortSignificant(value, 2) : value.toFixed(3);
}

/** One number in a known unit; `difference` writes rates in percentage points. */
function inUnit(value: number, unit: MetricUnit, difference: boolean): string {
  switch (unit) {
    case 'ratio':
      return difference ? `${percent(value)} pp` : `${percent(value)}%`;
    case 'seconds':
      return `${seconds(value)}s`;
    case 'usd':
      return dollars(value);
    case 'tokens':
      return trimmed(value, Math.abs(value) >= 100 ? 0 : 1);
    case 'count':
      return plain(value);
    case 'minutes':
      return `${plain(value)} min`;
    case 'score':
      return score(value);
    default: {
      const unreachable: never = unit;
      return String(unreachable);
    }
  }
}

/**
 * The display text of a value: "95.0%", "1.25s", "$0.0123", "n/a" for null.
 *
 * @example formatMetricValue(0.000312, 'usd') // "$0.000312"
 */
export function formatMetricValue(value: number | null, unit: MetricUnit): string {
  if (value === null || !Number.isFinite(value)) return 'n/a';
  return inUnit(denoise(value), unit, false);
}

/** What a formatter needs to know of a metric: its unit, or failing that how its value was shown. */
export type MetricUnitOf = Pick<MetricResult, 'formatted_value' | 'unit'>;

const UNIT_ALIASES: Readonly<Record<string, MetricUnit>> = {
  ratio: 'ratio',
  '%': 'ratio',
  percent: 'ratio',
  seconds: 'seconds',
  s: 'seconds',
  usd: 'usd',
  USD: 'usd',
  $: 'usd',
  tokens: 'tokens',
  count: 'count',
  minutes: 'minutes',
  score: 'score',
};

/** The known unit of a metric (plugins may write their own unit, or none). */
export function unitOf(metric: MetricUnitOf): MetricUnit | undefined {
  const known = metric.unit === undefined ? undefined : UNIT_ALIASES[metric.unit];
  if (known !== undefined) return known;
  const shown = metric.formatted_value.trim();
  if (shown.endsWith('%')) return 'ratio';
  if (shown.startsWith('$') || shown.startsWith('-$')) return 'usd';
  return undefined;
}

/** Rates are stored as 0..1 and shown as percentages; a metric says so by unit or formatting. */
export function isPercentMetric(metric: MetricUnitOf): boolean {
  return unitOf(metric) === 'ratio';
}

/**
 * One number in the metric's unit (null -> "n/a"): a value, a standard error, an interval end or
 * a threshold. A unit HarnessEval does not know is appended to a plain number.
 */
export function formatMetricNumber(metric: MetricUnitOf, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return 'n/a';
  const unit = unitOf(metric);
  if (unit !== undefined) return inUnit(denoise(value), unit, false);
  const text = plain(denoise(value));
  return metric.unit ? `${text} ${metric.unit}` : text;
}

/**
 * A difference B - A with its sign, in the metric's unit; rates in percentage points:
 * "+5.0 pp", "-$0.0015", "+0.120s", "0".
 */
export function formatDifference(metric: MetricUnitOf, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return 'n/a';
  const v = denoise(value);
  const unit = unitOf(metric);
  const text = unit === undefined ? formatMetricNumber(metric, v) : inUnit(v, unit, true);
  return v > 0 ? `+${text}` : text;
}

/** "[67.6%, 92.4%]" (differences: "[+1.2 pp, +9.8 pp]"), or "-" without an interval. */
export function formatInterval(
  metric: MetricUnitOf,
  interval: readonly [number, number] | null,
  options: { readonly difference?: boolean } = {},
): string {
  if (interval === null) return '-';
  const one = options.difference
    ? (x: number) => formatDifference(metric, x)
    : (x: number) => formatMetricNumber(metric, x);
  return `[${one(interval[0])}, ${one(interval[1])}]`;
}

/** A p-value: three decimals, "<0.001" below, "-" when there is none. */
export function formatPValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '-';
  if (p < 0.001) return '<0.001';
  return p.toFixed(3);
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

/** The cells of a metric row, shared by the console, markdown and JUnit reporters. */
export function metricCells(metric: MetricResult): MetricCells {
  return {
    name: metric.name,
    // Known units are re-formatted, so experiments stored by older versions read like new ones.
    value:
      metric.value === null
        ? 'n/a'
        : unitOf(metric) === undefined && metric.formatted_value !== ''
          ? metric.formatted_value
          : formatMetricNumber(metric, metric.value),
    // `value ± standard error`, then the 95% interval (about value ± 2 s.e.), as papers write it.
    margin:
      metric.value === null || metric.stderr === null ? '' : `±${formatMetricNumber(metric, metric.stderr)}`,
    interval: metric.ci95 === null || metric.value === null ? '' : formatInterval(metric, metric.ci95),
    n: `n=${metric.n}`,
  };
}
