import { sortedQuantile } from './descriptive.ts';

/**
 * A seeded PRNG: mulberry32 (Tommy Ettinger), 32 bits of state, uniform floats in [0, 1).
 * Not cryptographic; enough to make bootstrap intervals reproducible from a seed.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + MULBERRY_INCREMENT) >>> 0;
    return mulberryOutput(state);
  };
}

const MULBERRY_INCREMENT = 0x6d2b79f5;

/** mulberry32's output for a state: a float in [0, 1). */
function mulberryOutput(state: number): number {
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export interface BootstrapOptions {
  readonly seed: number;
  /** Number of resamples, default 2000. */
  readonly resamples?: number;
  /** Confidence level, default 0.95. */
  readonly level?: number;
}

export interface BootstrapResult {
  /** The statistic on the original sample. */
  readonly estimate: number;
  /** Percentile interval [q(α/2), q(1-α/2)] of the resampled statistics (type-7 quantiles). */
  readonly ci: [number, number];
  /** Standard deviation of the resampled statistics: the bootstrap standard error. */
  readonly stderr: number;
  readonly resamples: number;
  readonly seed: number;
}

/**
 * Percentile bootstrap interval of `statistic` over `items`, resampled with replacement.
 * Resample whole tasks (or clusters) as items to respect their dependence. Null for empty input
 * or when the statistic is not finite on the original sample; resamples whose statistic is not
 * finite are dropped.
 */
export function bootstrapCi<T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => number | null,
  options: BootstrapOptions,
): BootstrapResult | null {
  if (items.length === 0) return null;
  const estimate = statistic(items);
  if (estimate === null || !Number.isFinite(estimate)) return null;
  const settings = checkOptions(options);
  const random = mulberry32(options.seed);
  const sample: T[] = new Array<T>(items.length);
  const replicates: number[] = [];
  for (let r = 0; r < settings.resamples; r++) {
    for (let i = 0; i < items.length; i++) sample[i] = items[Math.floor(random() * items.length)]!;
    const value = statistic(sample);
    if (value !== null && Number.isFinite(value)) replicates.push(value);
  }
  return summarize(estimate, replicates, settings.level, options.seed);
}

/**
 * `bootstrapCi` over the indexes 0..n-1 for statistics that only need how often each index was
 * drawn: `counts[i]` is that number (all 1 for the original sample). The same draws as
 * `bootstrapCi` with the same seed, without building each resample, and shared by every
 * statistic given: one resampling serves both latency percentiles over 10,000 trials.
 */
export function bootstrapCountsCi(
  n: number,
  statistics: readonly ((counts: Int32Array) => number | null)[],
  options: BootstrapOptions,
): (BootstrapResult | null)[] {
  if (n === 0) return statistics.map(() => null);
  const counts = new Int32Array(n).fill(1);
  const estimates = statistics.map((statistic) => statistic(counts));
  const live = estimates.map((e) => e !== null && Number.isFinite(e));
  if (!live.some(Boolean)) return statistics.map(() => null);
  const settings = checkOptions(options);
  // mulberry32(seed) stepped inline: calling its closure 10 million times was most of the cost.
  let state = options.seed >>> 0;
  const replicates = statistics.map((): number[] => []);
  for (let r = 0; r < settings.resamples; r++) {
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      state = (state + MULBERRY_INCREMENT) >>> 0;
      counts[Math.floor(mulberryOutput(state) * n)]! += 1;
    }
    for (let k = 0; k < statistics.length; k++) {
      if (!live[k]) continue;
      const value = statistics[k]!(counts);
      if (value !== null && Number.isFinite(value)) replicates[k]!.push(value);
    }
  }
  return estimates.map((estimate, k) =>
    live[k] ? summarize(estimate!, replicates[k]!, settings.level, options.seed) : null,
  );
}

function checkOptions(options: BootstrapOptions): { resamples: number; level: number } {
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError('resamples must be a positive integer');
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  return { resamples, level };
}

/** The percentile interval and standard error of the replicates. */
function summarize(
  estimate: number,
  replicates: readonly number[],
  level: number,
  seed: number,
): BootstrapResult | null {
  if (replicates.length === 0) return null;
  const sorted = Float64Array.from(replicates).sort();
  const alpha = 1 - level;
  const m = replicates.reduce((s, x) => s + x, 0) / replicates.length;
  const sd =
    replicates.length < 2
      ? 0
      : Math.sqrt(replicates.reduce((s, x) => s + (x - m) ** 2, 0) / (replicates.length - 1));
  return {
    estimate,
    ci: [sortedQuantile(sorted, alpha / 2)!, sortedQuantile(sorted, 1 - alpha / 2)!],
    stderr: sd,
    resamples: replicates.length,
    seed,
  };
}
