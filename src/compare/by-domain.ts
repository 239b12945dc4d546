import type { Direction, Experiment } from '../core/experiment.ts';
import { type AdjustMethod, adjustPValues } from '../stats/multiplicity.ts';
import { comparePaired } from '../stats/significance.ts';
import { type StratifiedResult, type StratumWeighting, stratifiedPaired } from '../stats/stratified.ts';
import { adjustFamily } from './family.ts';
import type { RawDelta } from './metric-row.ts';
import type { PairedMetric } from './types.ts';

/**
 * Cross-domain comparison (docs/statistics.md, "Across domains"): when the shared tasks of a
 * baseline and a candidate span several domains (a suite that gathers the tasks of several
 * starter suites), each metric gets a paired test per domain — the same rule as the main table,
 * on that domain's tasks — and a pooled stratified test with stated weights.
 */

export interface DomainMetricTest {
  readonly domain: string;
  /** The domain's own paired test, p adjusted over every per-domain test of the candidate. */
  readonly test: PairedMetric | null;
}

export interface PooledMetric extends StratifiedResult {
  /** p adjusted over the pooled tests of the candidate's metrics. */
  readonly p_adjusted: number | null;
}

export interface DomainMetricComparison {
  readonly name: string;
  readonly direction: Direction;
  readonly unit?: string | undefined;
  readonly per_domain: readonly DomainMetricTest[];
  /** Null with `refused` when the metric cannot be pooled across these domains. */
  readonly pooled: PooledMetric | null;
  readonly refused: string | null;
  /** The unstratified mean difference over all shared tasks (the main table's), for contrast. */
  readonly raw_difference: number | null;
}

/** One candidate against the baseline, domain by domain. */
export interface DomainComparison {
  readonly baseline_id: string;
  readonly experiment_id: string;
  readonly weighting: StratumWeighting;
  readonly domains: readonly {
    readonly name: string;
    readonly shared_tasks: number;
    readonly weight: number;
  }[];
  readonly metrics: readonly DomainMetricComparison[];
}

/** Task id -> domain, from the suite tasks of the experiments (the first that names one wins). */
export function domainMap(experiments: readonly Experiment[]): Map<string, string> {
  const domains = new Map<string, string>();
  for (const experiment of experiments)
    for (const task of experiment.suite.tasks)
      if (task.domain !== undefined && !domains.has(task.id)) domains.set(task.id, task.domain);
  return domains;
}

function restrict(values: ReadonlyMap<string, number>, tasks: ReadonlySet<string>): Map<string, number> {
  return new Map([...values].filter(([task]) => tasks.has(task)));
}

export interface DomainRow {
  readonly name: string;
  readonly direction: Direction;
  readonly unit: string | undefined;
  readonly aggregate: 'mean' | 'sum';
  readonly raw: RawDelta | undefined;
}

/** Why a metric is not pooled, or null when it can be. */
function refusal(
  row: DomainRow,
  measured: readonly { domain: string; n: number }[],
  clustered: boolean,
): string | null {
  if (row.aggregate === 'sum')
    return 'a total over different task sets is not a per-domain quantity: pool its per-task form instead';
  if (row.raw?.perTask === undefined)
    return 'no per-task values (a percentile or a ratio): nothing to stratify';
  if (clustered)
    return 'tasks carry clusters: the stratified test treats tasks as independent, which clustered tasks are not';
  const missing = measured.filter((m) => m.n === 0).map((m) => m.domain);
  if (missing.length > 0)
    return `not measured in ${missing.join(', ')}: pooling would silently weigh only the other domains`;
  return null;
}

/**
 * The per-domain and pooled comparison of one candidate, or null when its shared tasks lie in
 * fewer than two domains. `shared` are the tasks the main table is over.
 */
export function compareByDomain(options: {
  readonly baselineId: string;
  readonly candidateId: string;
  readonly shared: readonly string[];
  readonly domains: ReadonlyMap<string, string>;
  /** Task -> cluster: per-domain tests use the clustered SE; the pooled test is refused. */
  readonly clusters: ReadonlyMap<string, string | undefined>;
  readonly rows: readonly DomainRow[];
  readonly weighting: StratumWeighting;
  readonly adjust: AdjustMethod;
  readonly alpha: number;
}): DomainComparison | null {
  const byDomain = new Map<string, Set<string>>();
  for (const task of options.shared) {
    const domain = options.domains.get(task);
    if (domain === undefined) return null; // a task without a domain: no honest stratification
    byDomain.set(domain, (byDomain.get(domain) ?? new Set()).add(task));
  }
  if (byDomain.size < 2) return null;
  const names = [...byDomain.keys()].sort();
  const clustered = options.shared.some((task) => options.clusters.get(task) !== undefined);
  const { alpha, adjust } = options;

  const rows = options.rows.map((row) => {
    const perTask = row.raw?.perTask;
    const strata = names.map((domain) => {
      const tasks = byDomain.get(domain)!;
      return perTask === undefined
        ? { name: domain, a: new Map<string, number>(), b: new Map<string, number>() }
        : { name: domain, a: restrict(perTask.a, tasks), b: restrict(perTask.b, tasks) };
    });
    const tests = strata.map((s) =>
      perTask === undefined || s.a.size === 0 || s.b.size === 0
        ? null
        : comparePaired(s.a, s.b, { alpha, kind: perTask.kind, clusters: options.clusters }),
    );
    const refused = refusal(
      row,
      strata.map((s, h) => ({ domain: s.name, n: tests[h]?.n ?? 0 })),
      clustered,
    );
    const pooled =
      refused === null ? stratifiedPaired(strata, { weighting: options.weighting, alpha }) : null;
    return { row, tests, pooled, refused };
  });

  // Per-domain tests: one family over every domain and metric of this candidate.
  const flat = rows.flatMap((r) => r.tests.map((test, h) => ({ name: `${r.row.name}@${names[h]}`, test })));
  const adjusted = adjustFamily(flat, { adjust, alpha });
  const pooledP = adjustPValues(
    rows.map((r) => r.pooled?.p_value ?? null),
    adjust,
  );
  const counts = names.map((domain) => byDomain.get(domain)!.size);
  const total = counts.reduce((s, n) => s + n, 0);
  return {
    baseline_id: options.baselineId,
    experiment_id: options.candidateId,
    weighting: options.weighting,
    domains: names.map((name, h) => ({
      name,
      shared_tasks: counts[h]!,
      weight: options.weighting === 'equal' ? 1 / names.length : counts[h]! / total,
    })),
    metrics: rows.map((r, i) => ({
      name: r.row.name,
      direction: r.row.direction,
      ...(r.row.unit === undefined ? {} : { unit: r.row.unit }),
      per_domain: names.map((domain, h) => ({ domain, test: adjusted[i * names.length + h] ?? null })),
      pooled:
        r.pooled === null
          ? null
          : {
              ...r.pooled,
              p_adjusted: pooledP[i] ?? null,
              significant: (pooledP[i] ?? null) !== null && pooledP[i]! < alpha,
            },
      refused: r.refused,
      raw_difference: r.row.raw?.test?.mean_difference ?? null,
    })),
  };
}
