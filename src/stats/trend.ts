import { mean } from './descriptive.ts';
import { type PairedDifference, pairedDifference } from './paired.ts';

/**
 * A trend over a whole lineage of versions, not just step by step: a steady drift of -2 points
 * per version is invisible to five separate steps yet obvious over the lineage.
 *
 * For each task that every version ran, the least-squares slope of its values on the version
 * index 0, 1, …, V-1; the trend is the mean of those slopes, tested with a one-sample t test over
 * tasks (t with G - 1 df, G tasks). With every task in every version this equals the slope of a
 * regression with one intercept per task (task fixed effects) and a standard error clustered by
 * task with the CR1 factor G/(G-1) (Cameron & Miller 2015) — the same per-task pairing as a
 * paired test, over the whole lineage. Slopes that do not vary fall back to the exact sign test.
 */
export interface LineageTrend
  extends Omit<PairedDifference, 'mean_a' | 'mean_b' | 'only_in_a' | 'only_in_b'> {
  /** Versions in the fit (index 0 = the first). */
  readonly versions: number;
  /** Mean change per version step, in the metric's unit (the mean of the per-task slopes). */
  readonly slope: number | null;
  /** Tasks left out because some version did not run them. */
  readonly tasks_left_out: readonly string[];
}

/** The OLS slope of ys on 0, 1, …, V-1. */
function slopeOverIndex(ys: readonly number[]): number {
  const v = ys.length;
  const xBar = (v - 1) / 2;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < v; i++) {
    sxy += (i - xBar) * ys[i]!;
    sxx += (i - xBar) ** 2;
  }
  return sxy / sxx;
}

/**
 * The lineage trend of per-task values, one map (task -> value) per version, oldest first.
 * Pure: call it on any subset of tasks.
 *
 * @example lineageTrend([v1, v2, v3]).slope // -0.0195 per version
 */
export function lineageTrend(
  versions: readonly ReadonlyMap<string, number>[],
  options: { readonly alpha?: number } = {},
): LineageTrend {
  const [first] = versions;
  const all = [...new Set(versions.flatMap((v) => [...v.keys()]))];
  const tasks =
    first === undefined
      ? []
      : [...first.keys()].filter((t) => versions.every((v) => Number.isFinite(v.get(t) ?? Number.NaN)));
  const kept = new Set(tasks);
  const slopes = versions.length < 2 ? [] : tasks.map((t) => slopeOverIndex(versions.map((v) => v.get(t)!)));
  // The one-sample t test of the slopes is the paired test of zeros against them.
  const test = pairedDifference(
    new Map(tasks.map((t) => [t, 0])),
    new Map(tasks.map((t, i) => [t, slopes[i] ?? Number.NaN])),
    options.alpha === undefined ? {} : { alpha: options.alpha },
  );
  const { mean_a: _a, mean_b: _b, only_in_a: _oa, only_in_b: _ob, ...rest } = test;
  return {
    ...rest,
    versions: versions.length,
    slope: versions.length < 2 ? null : (mean(slopes) ?? null),
    tasks_left_out: all.filter((t) => !kept.has(t)),
  };
}
