const BARS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;

/**
 * A unicode sparkline: each value scaled between the series' min and max onto ▁..█. A missing
 * value is a space; a flat series is all ▄ (no change is not "all low").
 *
 * @example sparkline([11.3, 8.7, 8.2, 5.1, 3.3]) // "█▆▅▃▁"
 */
export function sparkline(values: readonly (number | null)[]): string {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (finite.length === 0) return ' '.repeat(values.length);
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  return values
    .map((v) => {
      if (v === null || !Number.isFinite(v)) return ' ';
      if (max === min) return BARS[3];
      const index = Math.round(((v - min) / (max - min)) * (BARS.length - 1));
      return BARS[Math.min(BARS.length - 1, Math.max(0, index))];
    })
    .join('');
}
