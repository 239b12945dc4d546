/**
 * Adjusted p-values for a family of tests, so that testing 20 metrics at once does not flag one
 * "significant" change by chance most of the time (with 20 independent null tests at α = 0.05,
 * P(at least one) = 1 - 0.95^20 = 64%).
 *
 * - `holm` (Holm 1979, the default): step-down Bonferroni. Sorted p_(1) ≤ … ≤ p_(m), the adjusted
 *   p_(i) = max_{j ≤ i} min(1, (m - j + 1)·p_(j)). Controls the family-wise error rate (the chance
 *   of any false "significant") under any dependence between the tests.
 * - `bh` (Benjamini & Hochberg 1995): step-up, adjusted p_(i) = min_{j ≥ i} min(1, m·p_(j) / j).
 *   Controls the false discovery rate (the expected share of false flags among the flagged) for
 *   independent or positively dependent tests: more power, weaker promise.
 * - `none`: the raw p-values.
 * These equal statsmodels' `multipletests(method='holm' | 'fdr_bh')`.
 */
export const ADJUST_METHODS = ['holm', 'bh', 'none'] as const;
export type AdjustMethod = (typeof ADJUST_METHODS)[number];

/** Adjusted p-values in the input order; null entries (no test) stay null and do not count in m. */
export function adjustPValues(pValues: readonly (number | null)[], method: AdjustMethod): (number | null)[] {
  const tested = pValues
    .map((p, index) => ({ p, index }))
    .filter((t): t is { p: number; index: number } => t.p !== null && Number.isFinite(t.p));
  const adjusted: (number | null)[] = pValues.map(() => null);
  const m = tested.length;
  if (method === 'none' || m === 0) {
    for (const t of tested) adjusted[t.index] = t.p;
    return adjusted;
  }
  const sorted = [...tested].sort((x, y) => x.p - y.p || x.index - y.index);
  if (method === 'holm') {
    let running = 0;
    sorted.forEach((t, i) => {
      running = Math.max(running, Math.min(1, (m - i) * t.p));
      adjusted[t.index] = running;
    });
  } else {
    let running = 1;
    for (let i = m - 1; i >= 0; i--) {
      const t = sorted[i]!;
      running = Math.min(running, Math.min(1, (m * t.p) / (i + 1)));
      adjusted[t.index] = running;
    }
  }
  return adjusted;
}
