import { standardError } from './descriptive.ts';
import { type McNemarResult, mcnemarExact } from './mcnemar.ts';
import { type PairedDifference, type PairedOptions, pairedDifference, sharedTasks } from './paired.ts';
import { clopperPearsonInterval } from './proportion.ts';

/**
 * The decision rule of a paired comparison, chosen by the kind of per-task value:
 *
 * - `binary`: one pass/fail verdict per task (0 or 1, one epoch). McNemar's exact test decides
 *   (McNemar 1947, exact binomial form); its interval is the conditional exact one below, so the
 *   interval excludes 0 exactly when the test rejects. The mid-p is reported, never decides.
 * - `continuous`: scores, costs, latencies, and pass *rates* over several epochs. The paired t test
 *   (`pairedDifference`): t(n - 1), CR1 + t(G - 1) with clusters, the exact sign test when the
 *   differences do not vary. Majority votes of epochs are never used.
 *
 * Both are pure functions of two task -> value maps, so a caller can run them on any subset of
 * tasks (one domain, one stratum) and get the same rule.
 */
export type PairedKind = 'binary' | 'continuous';

export interface PairedTest extends PairedDifference {
  readonly kind: PairedKind;
  /** For `binary`: the discordant counts, the exact p and the mid-p (shown, never deciding). */
  readonly mcnemar: McNemarResult | null;
}

/**
 * For binary verdicts: the interval of p01 - p10 given the m = b + c discordant tasks (the
 * conditioning McNemar's test uses; Agresti 2013, section 11.1). With [lo, hi] the Clopper–Pearson
 * interval of c / m, the difference (c - b) / n lies in [m/n·(2 lo - 1), m/n·(2 hi - 1)]. With no
 * discordant task at all, the difference is at most the exact upper bound u of the discordant
 * share (0 of n): [-u, u].
 */
export function mcnemarInterval(b: number, c: number, n: number, level = 0.95): [number, number] | null {
  if (n < 1) return null;
  const m = b + c;
  if (m === 0) {
    const u = 1 - ((1 - level) / 2) ** (1 / n);
    return [-u, u];
  }
  const ci = clopperPearsonInterval(c, m, level);
  if (ci === null) return null;
  return [(m / n) * (2 * ci[0] - 1), (m / n) * (2 * ci[1] - 1)];
}

function isVerdict(value: number): boolean {
  return value === 0 || value === 1;
}

/** True when every shared task has a 0/1 value on both sides. */
export function allVerdicts(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  const { tasks } = sharedTasks(a, b);
  return tasks.every((t) => isVerdict(a.get(t)!) && isVerdict(b.get(t)!));
}

/** McNemar's exact test on one pass/fail verdict per task (values 0 or 1). */
export function pairedBinary(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  options: Pick<PairedOptions, 'alpha'> = {},
): PairedTest {
  const alpha = options.alpha ?? 0.05;
  const paired = pairedDifference(a, b, { alpha });
  let regressions = 0;
  let improvements = 0;
  for (const t of paired.tasks) {
    const x = a.get(t)!;
    const y = b.get(t)!;
    if (!isVerdict(x) || !isVerdict(y))
      throw new RangeError(`pairedBinary: task ${t} has a value other than 0 or 1`);
    if (x > y) regressions++;
    else if (y > x) improvements++;
  }
  const n = paired.n;
  const mcnemar = mcnemarExact(regressions, improvements);
  const diffs = paired.tasks.map((t) => b.get(t)! - a.get(t)!);
  return {
    ...paired,
    kind: 'binary',
    mean_difference: n === 0 ? null : (improvements - regressions) / n,
    stderr: standardError(diffs),
    ci95: n === 0 ? null : mcnemarInterval(regressions, improvements, n),
    ci_method: 'mcnemar_conditional_exact',
    p_value: n === 0 ? null : mcnemar.p_value,
    significant: n > 0 && mcnemar.p_value < alpha,
    test: 'mcnemar_exact',
    df: null,
    mcnemar,
  };
}

/**
 * The paired test for the kind of value: `pairedBinary` for one verdict per task (and no
 * clusters: McNemar assumes independent tasks), `pairedDifference` otherwise.
 */
export function pairedTest(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  options: PairedOptions & { readonly kind: PairedKind },
): PairedTest {
  const clustered =
    options.clusters !== undefined && [...options.clusters.values()].some((c) => c !== undefined);
  if (options.kind === 'binary' && !clustered && allVerdicts(a, b))
    return pairedBinary(a, b, options.alpha === undefined ? {} : { alpha: options.alpha });
  return { ...pairedDifference(a, b, options), kind: 'continuous', mcnemar: null };
}
