/**
 * An always-valid confidence sequence for the mean of bounded observations, by betting
 * (Waudby-Smith & Ramdas 2024, "Estimating means of bounded random variables by betting",
 * JRSS-B 86(1); the hedged capital process with predictable plug-in bets, their Theorem 3).
 *
 * For each candidate mean m, a gambler who bets that the mean is above m (and one that it is
 * below) starts with capital 1 and after each observation x_i ∈ [0, 1] multiplies it by
 * 1 + λ_i (x_i - m) (or 1 - λ_i (x_i - m)), with bets λ_i chosen from the earlier observations
 * only. If the true mean is m, the average of the two capitals is a nonnegative martingale, so by
 * Ville's inequality the chance that it EVER reaches 1/α is at most α. The confidence sequence at
 * time t is every m whose hedged capital is still below 1/α. It may be looked at after every
 * observation and stopped at any time, without inflating the error rate — unlike a t test
 * repeated after each task, whose false positive rate grows with the number of looks.
 */

export interface ConfidenceSequenceOptions {
  /** Error rate over all looks, default 0.05. */
  readonly alpha?: number;
  /** The range the observations lie in (default [0, 1]); rescaled to [0, 1] inside. */
  readonly lower?: number;
  readonly upper?: number;
  /** Candidate means on a grid of this many points over the range (default 1001). */
  readonly grid?: number;
}

export interface ConfidenceSequenceStep {
  /** Observations so far. */
  readonly t: number;
  /** Running mean of the observations. */
  readonly mean: number;
  /** The interval after t observations (the running intersection), in the observations' units. */
  readonly interval: [number, number];
}

const BET_CAP = 0.5; // c in the paper: bets never risk more than half the capital

/**
 * The confidence sequence after each observation, in order. Observations outside the range
 * throw a RangeError (the guarantee needs the bounds).
 *
 * @example confidenceSequence([0.7, 0.8, 0.75]).at(-1)?.interval
 */
export function confidenceSequence(
  observations: readonly number[],
  options: ConfidenceSequenceOptions = {},
): ConfidenceSequenceStep[] {
  const alpha = options.alpha ?? 0.05;
  const lower = options.lower ?? 0;
  const upper = options.upper ?? 1;
  const points = options.grid ?? 1001;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(upper > lower)) throw new RangeError('confidenceSequence: upper must exceed lower');
  if (!(Number.isInteger(points) && points >= 3)) throw new RangeError('grid must be an integer >= 3');
  const width = upper - lower;
  const grid = Float64Array.from({ length: points }, (_, i) => i / (points - 1));
  // Log capital of the "above m" and "below m" gamblers, per grid point.
  const up = new Float64Array(points);
  const down = new Float64Array(points);
  const alive = new Uint8Array(points).fill(1);
  const threshold = Math.log(1 / alpha);
  const steps: ConfidenceSequenceStep[] = [];
  let sum = 0;
  let sumSquares = 0.25; // σ̂² prior: 1/4, the largest variance on [0, 1]
  for (let i = 1; i <= observations.length; i++) {
    const raw = observations[i - 1]!;
    if (!(raw >= lower - 1e-12 && raw <= upper + 1e-12))
      throw new RangeError(`observation ${raw} is outside [${lower}, ${upper}]`);
    const x = Math.min(1, Math.max(0, (raw - lower) / width));
    const sigma2 = sumSquares / i; // predictable: from observations 1..i-1
    const lambda = Math.sqrt((2 * Math.log(2 / alpha)) / (sigma2 * i * Math.log(i + 1)));
    for (let k = 0; k < points; k++) {
      if (alive[k] === 0) continue;
      const m = grid[k]!;
      const lUp = Math.min(lambda, m > 0 ? BET_CAP / m : lambda);
      const lDown = Math.min(lambda, m < 1 ? BET_CAP / (1 - m) : lambda);
      const logUp = up[k]! + Math.log1p(lUp * (x - m));
      const logDown = down[k]! + Math.log1p(-lDown * (x - m));
      up[k] = logUp;
      down[k] = logDown;
      // Hedged: max(½ K⁺, ½ K⁻) ≥ 1/α rejects m (kept in logs: capital can grow past 1e308).
      if (Math.max(logUp, logDown) + Math.log(0.5) >= threshold) alive[k] = 0;
    }
    // σ̂²_i = (1/4 + Σ_{j≤i} (x_j - μ̂_j)²) / (i + 1), μ̂_j = (1/2 + Σ_{l≤j} x_l) / (j + 1).
    sum += x;
    const muHat = (0.5 + sum) / (i + 1);
    sumSquares += (x - muHat) ** 2;
    steps.push({ t: i, mean: lower + (sum / i) * width, interval: bounds(grid, alive, lower, width) });
  }
  return steps;
}

/** The smallest and largest surviving grid points, widened by one grid step to stay conservative. */
function bounds(grid: Float64Array, alive: Uint8Array, lower: number, width: number): [number, number] {
  let first = -1;
  let last = -1;
  for (let k = 0; k < grid.length; k++) {
    if (alive[k] === 0) continue;
    if (first < 0) first = k;
    last = k;
  }
  if (first < 0) {
    // Every grid point rejected (possible only between grid points): the true mean lies between two.
    return [lower, lower + width];
  }
  const lo = grid[Math.max(0, first - 1)]!;
  const hi = grid[Math.min(grid.length - 1, last + 1)]!;
  return [lower + lo * width, lower + hi * width];
}
