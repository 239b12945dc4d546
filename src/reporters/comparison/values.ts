import type { Comparison, MetricComparison } from '../../compare/types.ts';
import { formatMetricNumber, unitOf } from '../../metrics/format.ts';

/**
 * The value columns of a comparison table. With one candidate that shares only some tasks with
 * the baseline, the columns are both sides over the shared tasks — the numbers the delta, the
 * test and any gate are computed from — and their headings say so; otherwise each experiment's
 * value over its own tasks.
 */
export function shownValues(comparison: Comparison): {
  heads: string[];
  cells: (metric: MetricComparison) => string[];
} {
  const labels = comparison.experiments.map((e) => e.label);
  const [pair] = comparison.pairs;
  const partial =
    comparison.pairs.length === 1 &&
    pair !== undefined &&
    pair.shared_tasks > 0 &&
    pair.only_in_baseline.length + pair.only_in_candidate.length + pair.excluded.length > 0;
  const shown = (metric: MetricComparison, value: number | null, formatted: string) => {
    const unit = { formatted_value: formatted, unit: metric.unit };
    return unitOf(unit) === undefined && value !== null && formatted !== ''
      ? formatted
      : formatMetricNumber(unit, value);
  };
  if (!partial) {
    return {
      heads: labels,
      cells: (m) => m.values.map((v) => shown(m, v.value, v.formatted_value)),
    };
  }
  const sample = (m: MetricComparison) => m.values.find((v) => v.value !== null)?.formatted_value ?? '';
  return {
    heads: labels.map((l) => `${l} (${pair.shared_tasks} shared)`),
    cells: (m) => {
      const d = m.deltas[0];
      return [shown(m, d?.baseline_value ?? null, sample(m)), shown(m, d?.value ?? null, sample(m))];
    },
  };
}
