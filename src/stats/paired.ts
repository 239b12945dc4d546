import { type ClusterCorrection, clusteredStandardError } from './clustered.ts';
import {
  confidenceInterval,
  type IntervalMethod,
  mean,
  pearsonCorrelation,
  standardError,
} from './descriptive.ts';
import { normalCdf, studentTCdf } from './distributions.ts';
import { mcnemarExact } from './mcnemar.ts';

/**
 * Paired differences (Miller 2024, section 4): when A and B ran the same tasks, compare them task
 * by task. The variance of the difference is Var(A) + Var(B) - 2 Cov(A, B), so the positive
 * correlation between two harnesses on the same tasks makes the paired test far more powerful
 * than comparing two independent means.
 *
 * The test is the paired t test with n - 1 degrees of freedom (Student 1908), or with clustered
 * tasks the CR1 cluster-robust standard error with G - 1 degrees of freedom (Cameron & Miller
 * 2015). When the differences do not vary at all (every task moved by the same amount, or not
 * at all) the t statistic is undefined, and the exact sign test decides instead: k tasks that all
 * moved the same way give p = 2·0.5^k, never p = 0.
 */

export interface PairedOptions {
  /** Task -> cluster; when any shared task has one, the SE of the difference is clustered. */
  readonly clusters?: ReadonlyMap<string, string | undefined>;
  /** Cluster correction, default `cr1` (Cameron & Miller 2015: G/(G-1), with t(G-1)). */
  readonly correction?: ClusterCorrection;
  /** `t` (default) with n - 1 (or clusters - 1) degrees of freedom, or `z` (Miller's normal). */
  readonly method?: IntervalMethod;
  /** Significance level, default 0.05. */
  readonly alpha?: number;
}

/**
 * Which test produced the p-value: `paired_t` / `paired_z` over per-task differences,
 * `cluster_t` / `cluster_z` with a clustered SE, `sign_test` (exact, for differences that do not
 * vary), `mcnemar_exact` (pass/fail verdicts, one per task: see `pairedBinary`).
 */
export type PairedTestName =
  | 'paired_t'
  | 'paired_z'
  | 'cluster_t'
  | 'cluster_z'
  | 'sign_test'
  | 'mcnemar_exact';

/**
 * How the interval was made: `t`/`z` (mean ± critical × SE), `sign_test` (distribution-free
 * order-statistic interval for the median difference, null when too few tasks reach the level),
 * `mcnemar_conditional_exact` (Clopper–Pearson on the discordant tasks, see `pairedBinary`).
 */
export type PairedIntervalMethod = 't' | 'z' | 'sign_test' | 'mcnemar_conditional_exact';

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
  readonly ci_method: PairedIntervalMethod;
  /** Two-sided p-value of "no difference"; null when n < 2 (one shared task tests nothing). */
  readonly p_value: number | null;
  /** p < alpha, for this test alone (a comparison of many metrics adjusts it). */
  readonly significant: boolean;
  readonly test: PairedTestName;
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

/** Splits two task maps into the tasks both ran (A's order) and the rest. */
export function sharedTasks(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
): { tasks: string[]; onlyInA: string[]; onlyInB: string[] } {
  const tasks: string[] = [];
  const onlyInA: string[] = [];
  for (const [task, value] of a) {
    const other = b.get(task);
    if (other !== undefined && Number.isFinite(other) && Number.isFinite(value)) tasks.push(task);
    else onlyInA.push(task);
  }
  const shared = new Set(tasks);
  return { tasks, onlyInA, onlyInB: [...b.keys()].filter((task) => !shared.has(task)) };
}

/**
 * Differences that do not vary beyond float rounding: 0.4 - 0.3 and 0.6 - 0.5 differ in the 17th
 * digit, and a t statistic on that "spread" would be 10^15.
 */
export function isConstant(values: readonly number[]): boolean {
  if (values.length === 0) return true;
  const scale = Math.max(...values.map(Math.abs));
  const spread = Math.max(...values) - Math.min(...values);
  return spread <= 1e-9 * Math.max(scale, 1e-300);
}

/**
 * The distribution-free interval [x_(k), x_(n-k+1)] for the median difference, with k the largest
 * order such that P(Bin(n, ½) < k) ≤ α/2; null when n is too small for the level (n < 6 at 95%).
 */
function signTestInterval(diffs: readonly number[], alpha: number): [number, number] | null {
  const sorted = [...diffs].sort((x, y) => x - y);
  const n = sorted.length;
  let k = 0;
  let below = 0; // P(Bin(n, ½) ≤ k - 1)
  let pmf = 2 ** -n;
  while (k < n / 2 && below + pmf <= alpha / 2) {
    below += pmf;
    k++;
    pmf = (pmf * (n - k + 1)) / k;
  }
  return k === 0 ? null : [sorted[k - 1]!, sorted[n - k]!];
}

/**
 * The paired difference B - A over the tasks both ran. Inputs map task id -> that task's score
 * (its mean over epochs). Pure: call it on any subset of tasks (a domain, a stratum).
 *
 * @example pairedDifference(new Map([['t1', 0.5], ['t2', 0.7]]), new Map([['t1', 0.6], ['t2', 0.9]])).mean_difference // 0.15
 */
export function pairedDifference(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  options: PairedOptions = {},
): PairedDifference {
  const { tasks, onlyInA, onlyInB } = sharedTasks(a, b);
  const xs = tasks.map((t) => a.get(t)!);
  const ys = tasks.map((t) => b.get(t)!);
  const diffs = tasks.map((_, i) => ys[i]! - xs[i]!);
  const n = diffs.length;
  const method = options.method ?? 't';
  const alpha = options.alpha ?? 0.05;
  const d = mean(diffs);
  const base = {
    tasks,
    n,
    only_in_a: onlyInA,
    only_in_b: onlyInB,
    mean_a: mean(xs),
    mean_b: mean(ys),
    mean_difference: d,
    correlation: n >= 2 ? pearsonCorrelation(xs, ys) : null,
    method,
  };

  const clusterMap = options.clusters;
  const clustered = clusterMap !== undefined && tasks.some((t) => clusterMap.get(t) !== undefined);
  if (n >= 2 && isConstant(diffs)) {
    // No spread: the exact sign test on the k non-zero differences (all of one sign).
    const moved = d === null || Math.abs(d) <= 1e-12 ? 0 : n;
    const sign = mcnemarExact(d !== null && d < 0 ? moved : 0, d !== null && d > 0 ? moved : 0);
    return {
      ...base,
      mean_difference: moved === 0 ? 0 : d,
      stderr: 0,
      ci95: signTestInterval(diffs, 0.05),
      ci_method: 'sign_test',
      p_value: sign.p_value,
      significant: sign.p_value < alpha,
      test: 'sign_test',
      clustered,
      clusters: clustered ? new Set(tasks.map((t) => clusterMap?.get(t) ?? `task:${t}`)).size : n,
      df: null,
    };
  }

  let stderr: number | null;
  let clusters = n;
  if (clustered) {
    const observations = tasks.map((t, i) => ({
      value: diffs[i]!,
      cluster: clusterMap.get(t) ?? `task:${t}`,
    }));
    stderr =
      clusteredStandardError(observations, { correction: options.correction ?? 'cr1' })?.stderr ?? null;
    clusters = new Set(observations.map((o) => o.cluster)).size;
  } else {
    stderr = standardError(diffs);
  }
  const df = method === 't' && clusters >= 2 ? clusters - 1 : null;
  const usable = stderr !== null && stderr > 0 && (method === 'z' || df !== null);
  const ci95 = usable
    ? confidenceInterval(d, stderr, df === null ? { method: 'z' } : { method: 't', df })
    : null;
  const pValue = usable && d !== null && stderr !== null ? twoSidedPValue(d / stderr, df) : null;
  return {
    ...base,
    stderr,
    ci95,
    ci_method: method,
    p_value: pValue,
    significant: pValue !== null && pValue < alpha,
    test: clustered ? (method === 't' ? 'cluster_t' : 'cluster_z') : method === 't' ? 'paired_t' : 'paired_z',
    clustered,
    clusters,
    df,
  };
}
