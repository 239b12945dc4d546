import { finiteValues, mean, standardError, sum } from './descriptive.ts';

/**
 * Standard errors for evals whose questions are not independent (Miller 2024, "Adding Error
 * Bars to Evals", section 2.2), and for evals run for several epochs (section 2.3).
 */

export interface ClusteredObservation {
  readonly value: number;
  readonly cluster: string;
}

/**
 * How the clustered variance is finished, for x̄ the mean over n observations and e_i = x_i - x̄:
 * - `cr1` (default): the econometric cluster-robust estimator with Stata's small-sample factor,
 *   SE² = G/(G-1) · (1/n²) Σ_c (Σ_i e_ic)², G the number of clusters. With few clusters use it
 *   with t(G-1) (Cameron & Miller 2015, "A Practitioner's Guide to Cluster-Robust Inference").
 * - `miller`: Miller's eq. (4),
 *   SE² = s²/n + (1/n²) Σ_c Σ_i Σ_{j≠i} e_ic e_jc, with s² the sample variance (n - 1);
 *   the CLT term keeps Bessel's correction and the cross terms add the within-cluster covariance;
 *   close to CR0, and optimistic with ten clusters or fewer.
 * - `none` (CR0): (1/n²) Σ_c (Σ_i e_ic)², biased low when clusters are few.
 * With one observation per cluster `miller` and `cr1` both equal the CLT standard error s/√n.
 */
export type ClusterCorrection = 'miller' | 'cr1' | 'none';

export interface ClusteredStandardError {
  readonly mean: number;
  readonly stderr: number;
  readonly n: number;
  readonly clusters: number;
}

/**
 * The clustered standard error of the mean of `observations`. Null when n < 2, or when there is a
 * single cluster (its residuals sum to zero, so the estimator says nothing).
 */
export function clusteredStandardError(
  observations: readonly ClusteredObservation[],
  options: { readonly correction?: ClusterCorrection } = {},
): ClusteredStandardError | null {
  const xs = observations.filter((o) => Number.isFinite(o.value));
  const n = xs.length;
  if (n < 2) return null;
  const m = sum(xs.map((o) => o.value)) / n;
  const residualSums = new Map<string, number>();
  const residualSquares = new Map<string, number>();
  for (const o of xs) {
    const e = o.value - m;
    residualSums.set(o.cluster, (residualSums.get(o.cluster) ?? 0) + e);
    residualSquares.set(o.cluster, (residualSquares.get(o.cluster) ?? 0) + e * e);
  }
  const g = residualSums.size;
  if (g < 2) return null;
  let between = 0; // Σ_c (Σ_i e_ic)²
  let diagonal = 0; // Σ_i e_i²
  for (const [cluster, s] of residualSums) {
    between += s * s;
    diagonal += residualSquares.get(cluster) ?? 0;
  }
  let v: number;
  switch (options.correction ?? 'cr1') {
    case 'miller': {
      // Σ_c Σ_i Σ_{j≠i} e_ic e_jc = Σ_c (Σ_i e_ic)² - Σ_i e_i².
      v = diagonal / (n - 1) / n + (between - diagonal) / (n * n);
      break;
    }
    case 'cr1':
      v = ((g / (g - 1)) * between) / (n * n);
      break;
    case 'none':
      v = between / (n * n);
      break;
  }
  // Negative within-cluster correlation can push Miller's sum below zero; the SE is then 0.
  return { mean: m, stderr: Math.sqrt(Math.max(0, v)), n, clusters: g };
}

/** The values grouped by key, groups in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Per-task means over epochs: task id -> mean of its finite values (tasks with none are left out). */
export function taskMeans(
  trials: readonly { readonly task: string; readonly value: number }[],
): Map<string, number> {
  const result = new Map<string, number>();
  for (const [task, group] of groupBy(trials, (t) => t.task)) {
    const m = mean(group.map((t) => t.value));
    if (m !== null) result.set(task, m);
  }
  return result;
}

export interface EpochStandardError {
  /** Mean of the per-task means: every task counts once, however many epochs it has. */
  readonly mean: number | null;
  readonly stderr: number | null;
  /** Tasks (the independent units). */
  readonly n: number;
  readonly trials: number;
  readonly clustered: boolean;
  readonly clusters: number;
}

/**
 * Mean and standard error over tasks when each task ran K epochs (Miller section 2.3): average
 * the K scores of a task first, then take the CLT (or, when `clusterOf` gives clusters, the
 * clustered) standard error over the per-task means. Treating the n·K trials as independent
 * would shrink the SE by about √K for tasks whose epochs agree — a false precision.
 */
export function epochStandardError(
  trials: readonly { readonly task: string; readonly value: number }[],
  options: {
    readonly clusterOf?: (task: string) => string | undefined;
    readonly correction?: ClusterCorrection;
  } = {},
): EpochStandardError {
  const finite = trials.filter((t) => Number.isFinite(t.value));
  return overTaskMeans(taskMeans(finite), finite.length, options);
}

/**
 * `epochStandardError` from the per-task means (task -> mean over its epochs, first-seen order)
 * and the number of trials behind them: what a metric folding one trial at a time has at the end.
 */
export function overTaskMeans(
  means: ReadonlyMap<string, number>,
  trials: number,
  options: {
    readonly clusterOf?: (task: string) => string | undefined;
    readonly correction?: ClusterCorrection;
  } = {},
): EpochStandardError {
  const values = [...means.values()];
  const m = mean(values);
  const clusterOf = options.clusterOf;
  const hasClusters =
    clusterOf !== undefined && [...means.keys()].some((task) => clusterOf(task) !== undefined);
  if (hasClusters) {
    // A task without a cluster is its own cluster.
    const observations = [...means].map(([task, value]) => ({
      value,
      cluster: clusterOf(task) ?? `task:${task}`,
    }));
    const clustered = clusteredStandardError(
      observations,
      options.correction ? { correction: options.correction } : {},
    );
    return {
      mean: m,
      stderr: clustered?.stderr ?? null,
      n: values.length,
      trials,
      clustered: true,
      clusters: new Set(observations.map((o) => o.cluster)).size,
    };
  }
  return {
    mean: m,
    stderr: standardError(values),
    n: values.length,
    trials,
    clustered: false,
    clusters: values.length,
  };
}

export interface VarianceComponents {
  /** σ²_between: variance of the tasks' true mean scores. */
  readonly between: number;
  /** σ²_within: mean over tasks of the variance between epochs of one task. */
  readonly within: number;
  readonly tasks: number;
  /** Mean number of epochs per task. */
  readonly epochs: number;
}

/**
 * Splits score variance into between-task and within-task parts from per-task epoch scores
 * (one-way random-effects ANOVA, method of moments): within = mean of the tasks' sample
 * variances; between = Var(task means) - within / K, floored at 0. Miller's section 2.3 and 5
 * use these to predict the SE for other numbers of tasks and epochs. Null when fewer than two
 * tasks, or no task has two epochs.
 */
export function varianceComponents(perTask: readonly (readonly number[])[]): VarianceComponents | null {
  const tasks = perTask.map((scores) => finiteValues(scores)).filter((scores) => scores.length > 0);
  if (tasks.length < 2) return null;
  const withinVariances: number[] = [];
  for (const scores of tasks) {
    if (scores.length < 2) continue;
    const m = sum(scores) / scores.length;
    withinVariances.push(sum(scores.map((x) => (x - m) ** 2)) / (scores.length - 1));
  }
  if (withinVariances.length === 0) return null;
  const within = sum(withinVariances) / withinVariances.length;
  const epochs = sum(tasks.map((s) => s.length)) / tasks.length;
  const means = tasks.map((s) => sum(s) / s.length);
  const mm = sum(means) / means.length;
  const varOfMeans = sum(means.map((x) => (x - mm) ** 2)) / (means.length - 1);
  return { between: Math.max(0, varOfMeans - within / epochs), within, tasks: tasks.length, epochs };
}
