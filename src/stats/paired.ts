import { type ClusterCorrection, clusteredStandardError } from './clustered.ts';
import {
  confidenceInterval,
  type IntervalMethod,
  mean,
  pearsonCorrelation,
  standardError,
} from './descriptive.ts';
import { normalCdf, studentTCdf } from './distributions.ts';

/**
 * Paired differences (Miller 2024, section 4): when A and B ran the same tasks, compare them task by
 * task. The variance of the difference is Var(A) + Var(B) - 2 Cov(A, B), so the positive
 * correlation between two harnesses on the same tasks makes the paired test far more powerful
 * than comparing two independent means.
 */

export interface PairedOptions {
  /** Task -> cluster; when any shared task has one, the SE of the difference is clustered. */
  readonly clusters?: ReadonlyMap<string, string | undefined>;
  readonly correction?: ClusterCorrection;
  /** `z` (default, as in Miller) or `t` with n - 1 (or clusters - 1) degrees of freedom. */
  readonly method?: IntervalMethod;
  /** Significance level, default 0.05. */
  readonly alpha?: number;
}

export interface PairedDifference {
  /** Tasks both ran, in A's order. */
  readonly tasks: readonly string[];
  readonly n: number;
  readonly only_in_a: readonly string[];
  readonly only_in_b: readonly string[];
  readonly mean_a: number | null;
  readonly mean_b: number | null;
  /** Mean of (B - A) over the shared tasks. */
  readonly mean_difference: number | null;
  readonly stderr: number | null;
  readonly ci95: [number, number] | null;
  /** Two-sided p-value of "no difference"; null when n < 2. */
  readonly p_value: number | null;
  readonly significant: boolean;
  /** Pearson correlation of A and B over the shared tasks; null when either is constant. */
  readonly correlation: number | null;
  readonly clustered: boolean;
  readonly clusters: number;
  readonly method: IntervalMethod;
  readonly df: number | null;
}

/** Two-sided p-value for a statistic that is normal (df null) or t-distributed under the null. */
export function twoSidedPValue(statistic: number, df: number | null): number {
  const a = Math.abs(statistic);
  const tail = df === null ? normalCdf(-a) : studentTCdf(-a, df);
  return Math.min(1, 2 * tail);
}

/**
 * The paired difference B - A over the tasks both ran. Inputs map task id -> that task's score
 * (its mean over epochs). Example: A = {t1: 0, t2: 1, t3: 1}, B = {t1: 1, t2: 1, t3: 1} gives
 * mean difference 1/3.
 */
export function pairedDifference(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  options: PairedOptions = {},
): PairedDifference {
  const tasks: string[] = [];
  const onlyInA: string[] = [];
  for (const [task, value] of a) {
    const other = b.get(task);
    if (other !== undefined && Number.isFinite(other) && Number.isFinite(value)) tasks.push(task);
    else onlyInA.push(task);
  }
  const shared = new Set(tasks);
  const onlyInB = [...b.keys()].filter((task) => !shared.has(task));
  const xs = tasks.map((t) => a.get(t)!);
  const ys = tasks.map((t) => b.get(t)!);
  const diffs = tasks.map((_, i) => ys[i]! - xs[i]!);
  const n = diffs.length;
  const method = options.method ?? 'z';
  const alpha = options.alpha ?? 0.05;
  const d = mean(diffs);

  const clusterMap = options.clusters;
  const clustered = clusterMap !== undefined && tasks.some((t) => clusterMap.get(t) !== undefined);
  let stderr: number | null;
  let clusters = n;
  if (clustered) {
    const observations = tasks.map((t, i) => ({
      value: diffs[i]!,
      cluster: clusterMap.get(t) ?? `task:${t}`,
    }));
    const result = clusteredStandardError(
      observations,
      options.correction ? { correction: options.correction } : {},
    );
    stderr = result?.stderr ?? null;
    clusters = new Set(observations.map((o) => o.cluster)).size;
  } else {
    stderr = standardError(diffs);
  }
  const df = method === 't' && clusters >= 2 ? clusters - 1 : null;
  const ci95 =
    stderr === null || (method === 't' && df === null)
      ? null
      : confidenceInterval(d, stderr, df === null ? { method: 'z' } : { method: 't', df });

  let pValue: number | null = null;
  if (d !== null && stderr !== null) {
    // No spread at all: identical differences. Zero difference is no evidence; a non-zero one
    // repeated on every task is the limit p -> 0.
    if (stderr === 0) pValue = d === 0 ? 1 : 0;
    else pValue = twoSidedPValue(d / stderr, df);
  }
  return {
    tasks,
    n,
    only_in_a: onlyInA,
    only_in_b: onlyInB,
    mean_a: mean(xs),
    mean_b: mean(ys),
    mean_difference: d,
    stderr,
    ci95,
    p_value: pValue,
    significant: pValue !== null && pValue < alpha,
    correlation: n >= 2 ? pearsonCorrelation(xs, ys) : null,
    clustered,
    clusters,
    method,
    df,
  };
}
