/** How a metric's value is shown; also stored as `MetricResult.unit`. */
export type MetricUnit = 'ratio' | 'seconds' | 'usd' | 'tokens' | 'count' | 'minutes' | 'score';

/** Trailing zeros of a fixed-point number dropped: 1.50 -> "1.5", 2.00 -> "2". */
function trimmed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * The display text of a value: "95.0%", "1.25s", "$0.0123", "n/a" for null.
 * Locale-independent so reports are byte-for-byte reproducible.
 */
export function formatMetricValue(value: number | null, unit: MetricUnit): string {
  if (value === null || !Number.isFinite(value)) return 'n/a';
  switch (unit) {
    case 'ratio':
      return `${(value * 100).toFixed(1)}%`;
    case 'seconds':
      return `${value.toFixed(Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2)}s`;
    case 'usd': {
      const abs = Math.abs(value);
      // Cents for dollars; four decimals for per-trial costs; two significant digits below that.
      const text =
        abs >= 1 || abs === 0 ? value.toFixed(2) : abs >= 0.0001 ? value.toFixed(4) : value.toPrecision(2);
      return value < 0 ? `-$${text.slice(1)}` : `$${text}`;
    }
    case 'tokens':
      return trimmed(value, Math.abs(value) >= 100 ? 0 : 1);
    case 'count':
      return trimmed(value, 2);
    case 'minutes':
      return `${trimmed(value, 1)} min`;
    case 'score':
      return value.toFixed(3);
    default: {
      const unreachable: never = unit;
      return String(unreachable);
    }
  }
}
