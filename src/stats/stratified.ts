import { mean, variance } from './descriptive.ts';
import { studentTCdf, studentTQuantile } from './distributions.ts';
import { mcnemarExact } from './mcnemar.ts';
import { sharedTasks } from './paired.ts';

/**
 * The stratified paired comparison of docs/statistics.md ("Across domains"): each domain is a
 * stratum, its mean paired difference is estimated from its own tasks, and the pooled difference is
 * the weighted sum of the stratum means with stated weights (Cochran 1977, ch. 5):
 *
 *   D = Σ w_h d̄_h,   SE² = Σ w_h² s_h² / n_h,   df = (Σ v_h)² / Σ v_h² / (n_h − 1),  v_h = w_h² s_h² / n_h
 *
 * with Satterthwaite's degrees of freedom (Satterthwaite 1946) for the t test and interval. Raw
 * pooling (one mean over every task) silently weighs each domain by its task count and mixes the
 * spread between domains into the noise; this keeps each domain's weight explicit.
 */

/** How the domains are weighted: `equal` (1/H each) or `tasks` (n_h / N, the raw pooled mean's weights). */
export const STRATUM_WEIGHTINGS = ['equal', 'tasks'] as const;
export type StratumWeighting = (typeof STRATUM_WEIGHTINGS)[number];

export interface StratumInput {
  readonly name: string;
  /** Task id -> value for A and for B (per-task means over epochs). */
  readonly a: ReadonlyMap<string, number>;
  readonly b: ReadonlyMap<string, number>;
}

export interface StratumSummary {
  readonly name: string;
  /** Shared tasks of the stratum. */
  readonly n: number;
  readonly weight: number;
  readonly mean_a: number | null;
  readonly mean_b: number | null;
  readonly mean_difference: number | null;
  /** Sample variance of the per-task differences (n − 1 divisor); null below 2 tasks. */
  readonly variance: number | null;
}

export interface StratifiedResult {
  readonly weighting: StratumWeighting;
  readonly strata: readonly StratumSummary[];
  /** Σ w_h ā_h and Σ w_h b̄_h. */
  readonly mean_a: number | null;
  readonly mean_b: number | null;
  readonly mean_difference: number | null;
  readonly stderr: number | null;
  readonly df: number | null;
  readonly statistic: number | null;
  readonly p_value: number | null;
  readonly ci95: [number, number] | null;
  readonly significant: boolean;
  /** `stratified_t`, or `sign_test` when no stratum's differences vary and all moved one way. */
  readonly test: 'stratified_t' | 'sign_test' | null;
  /** Why there is no test (a stratum below 2 tasks, opposite moves without spread). */
  readonly reason: string | null;
}

function weightsOf(counts: readonly number[], weighting: StratumWeighting): number[] {
  const total = counts.reduce((s, n) => s + n, 0);
  return counts.map((n) => (weighting === 'equal' ? 1 / counts.length : total === 0 ? 0 : n / total));
}

const weighted = (weights: readonly number[], values: readonly (number | null)[]): number | null =>
  values.some((v) => v === null) ? null : weights.reduce((s, w, i) => s + w * values[i]!, 0);

/**
 * The stratified paired test over strata (domains) of per-task values.
 *
 * @example stratifiedPaired([{ name: 'support', a, b }, { name: 'product-dev', a: a2, b: b2 }]).mean_difference
 */
export function stratifiedPaired(
  strata: readonly StratumInput[],
  options: { readonly weighting?: StratumWeighting; readonly alpha?: number } = {},
): StratifiedResult {
  const weighting = options.weighting ?? 'equal';
  const alpha = options.alpha ?? 0.05;
  const diffs = strata.map((s) => {
    const { tasks } = sharedTasks(s.a, s.b);
    return {
      xs: tasks.map((t) => s.a.get(t)!),
      ys: tasks.map((t) => s.b.get(t)!),
      ds: tasks.map((t) => s.b.get(t)! - s.a.get(t)!),
    };
  });
  const weights = weightsOf(
    diffs.map((d) => d.ds.length),
    weighting,
  );
  const summaries: StratumSummary[] = strata.map((s, h) => ({
    name: s.name,
    n: diffs[h]!.ds.length,
    weight: weights[h]!,
    mean_a: mean(diffs[h]!.xs),
    mean_b: mean(diffs[h]!.ys),
    mean_difference: mean(diffs[h]!.ds),
    variance: variance(diffs[h]!.ds),
  }));
  const base = {
    weighting,
    strata: summaries,
    mean_a: weighted(
      weights,
      summaries.map((s) => s.mean_a),
    ),
    mean_b: weighted(
      weights,
      summaries.map((s) => s.mean_b),
    ),
    mean_difference: weighted(
      weights,
      summaries.map((s) => s.mean_difference),
    ),
  };
  const none = (reason: string): StratifiedResult => ({
    ...base,
    stderr: null,
    df: null,
    statistic: null,
    p_value: null,
    ci95: null,
    significant: false,
    test: null,
    reason,
  });
  if (strata.length < 2) return none('a stratified test needs at least two domains');
  const thin = summaries.find((s) => s.n < 2);
  if (thin !== undefined)
    return none(`domain ${thin.name} has ${thin.n} shared task(s): its variance cannot be estimated`);

  const parts = summaries.map((s) => (s.weight * s.weight * s.variance!) / s.n);
  const se2 = parts.reduce((s, v) => s + v, 0);
  const d = base.mean_difference!;
  if (se2 <= 1e-24) {
    // No spread inside any domain: the t statistic is undefined. Every task's sign is a fair coin
    // under "no change", whatever its domain, so the exact sign test holds when all moved one way.
    const all = diffs.flatMap((x) => x.ds).filter((v) => Math.abs(v) > 1e-12);
    const up = all.filter((v) => v > 0).length;
    if (up > 0 && up < all.length)
      return none('no spread inside any domain, and the domains moved in opposite directions');
    const sign = mcnemarExact(all.length - up, up);
    return {
      ...base,
      mean_difference: all.length === 0 ? 0 : d,
      stderr: 0,
      df: null,
      statistic: null,
      p_value: sign.p_value,
      ci95: null,
      significant: sign.p_value < alpha,
      test: 'sign_test',
      reason: null,
    };
  }
  const se = Math.sqrt(se2);
  const df = (se2 * se2) / parts.reduce((s, v, h) => s + (v * v) / (summaries[h]!.n - 1), 0);
  const statistic = d / se;
  const p = Math.min(1, 2 * studentTCdf(-Math.abs(statistic), df));
  const q = studentTQuantile(0.975, df);
  return {
    ...base,
    stderr: se,
    df,
    statistic,
    p_value: p,
    ci95: [d - q * se, d + q * se],
    significant: p < alpha,
    test: 'stratified_t',
    reason: null,
  };
}
