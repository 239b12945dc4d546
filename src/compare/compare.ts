import { HarnessEvalError } from '../core/errors.ts';
import type { Direction, Experiment, MetricResult } from '../core/experiment.ts';
import type { Threshold } from '../core/suite.ts';
import type { FlakinessRun } from '../metrics/flaky.ts';
import type { MetricRegistry } from '../metrics/registry.ts';
import type { AdjustMethod } from '../stats/multiplicity.ts';
import type { StratumWeighting } from '../stats/stratified.ts';
import { compareByDomain, domainMap } from './by-domain.ts';
import { adjustFamily } from './family.ts';
import { flippedTasks } from './flips.ts';
import { experimentLabels, orderMetricNames } from './labels.ts';
import { type RawDelta, rawDelta, resultFor } from './metric-row.ts';
import { type PairScope, pairScope } from './pair-scope.ts';
import { clusterMap, metricForResult } from './per-task.ts';
import { checkRegressions } from './regression.ts';
import { isBounded, sequentialVerdict } from './sequential.ts';
import type {
  ComparedExperiment,
  Comparison,
  MetricComparison,
  MetricDelta,
  MetricValue,
  PairComparison,
} from './types.ts';
import { warningsFor } from './warnings.ts';

/** Below this many shared tasks a comparison says which exact or t method decided, and warns. */
export const SMALL_SAMPLE_TASKS = 10;

export interface CompareOptions {
  /** Metric names (as stored: `success_rate`, `pass@3`); default the union of the experiments' metrics. */
  readonly metrics?: readonly string[];
  /** Significance level of the paired tests, default 0.05. */
  readonly alpha?: number;
  /** How p-values are adjusted over the metrics of a candidate: `holm` (default), `bh`, `none`. */
  readonly adjust?: AdjustMethod;
  /** Regression rules checked on each candidate (`comparison.violations`). */
  readonly thresholds?: Readonly<Record<string, Threshold>>;
  readonly registry?: MetricRegistry;
  /** Leave out the tasks whose verdict flips between attempts of either version. */
  readonly excludeFlaky?: boolean;
  /**
   * Other stored runs of each experiment's harness version (index = experiment), so that a task
   * is also flaky when its verdict differs between runs, not only between epochs of one run.
   */
  readonly versionRuns?: readonly (readonly FlakinessRun[] | undefined)[];
  /** An always-valid sequential verdict for bounded metrics (rates, scores) with this ± margin. */
  readonly sequential?: { readonly margin: number };
  /** How domains are weighted in the pooled stratified test (`by_domain`): `equal` (default) or `tasks`. */
  readonly weighting?: StratumWeighting;
}

function describe(experiment: Experiment, label: string): ComparedExperiment {
  return {
    id: experiment.id,
    label,
    harness: { name: experiment.harness.name, version: experiment.harness.version },
    suite: { id: experiment.suite.id, ...(experiment.suite.hash ? { hash: experiment.suite.hash } : {}) },
    created_at: experiment.created_at,
    status: experiment.status,
    tasks: new Set(experiment.records.map((r) => r.task_id)).size,
    epochs: experiment.settings.epochs,
  };
}

function metricValue(result: MetricResult | undefined): MetricValue {
  if (result === undefined) return { value: null, formatted_value: 'n/a', n: 0, ci95: null };
  return { value: result.value, formatted_value: result.formatted_value, n: result.n, ci95: result.ci95 };
}

function checkAlpha(alpha: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new HarnessEvalError('usage', `alpha must be in (0, 1), got ${alpha}`);
}

/**
 * Compares experiments: A (the first) is the baseline, each further one a candidate. Per metric
 * and candidate, over the tasks both ran: the value of each side, the direction-aware change, and
 * the paired test of docs/statistics.md (exact McNemar for one pass/fail verdict per task, else the
 * paired t test; clustered when tasks carry a cluster), its p adjusted over the candidate's metrics
 * (Holm by default), and what a non-significant test could have detected.
 *
 * @example const c = compareExperiments([v031, v040]); c.metrics[0].deltas[0].percent_label // "-37.8%"
 */
export function compareExperiments(
  experiments: readonly Experiment[],
  options: CompareOptions = {},
): Comparison {
  const [baseline] = experiments;
  if (baseline === undefined || experiments.length < 2) {
    throw new HarnessEvalError(
      'usage',
      'a comparison needs at least two experiments (a baseline and a candidate)',
    );
  }
  const alpha = options.alpha ?? 0.05;
  checkAlpha(alpha);
  const adjust = options.adjust ?? 'holm';
  const candidates = experiments.slice(1);
  const names = options.metrics ?? orderMetricNames(experiments.flatMap((e) => e.metrics.map((m) => m.name)));
  const clusters = clusterMap(experiments);
  const scopes: PairScope[] = candidates.map((candidate, i) =>
    pairScope(baseline, candidate, {
      excludeFlaky: options.excludeFlaky,
      runs: {
        ...(options.versionRuns?.[0] ? { baseline: options.versionRuns[0] } : {}),
        ...(options.versionRuns?.[i + 1] ? { candidate: options.versionRuns[i + 1] } : {}),
      },
    }),
  );

  const rows = names.map((name) => {
    const metric = metricForResult(name, options.registry);
    const results = experiments.map((e) => resultFor(e, name, metric));
    const known = results.find((r) => r !== undefined);
    const direction: Direction = known?.direction ?? metric?.direction ?? 'neutral';
    const values = results.map(metricValue);
    const raw = scopes.map((scope, i) =>
      rawDelta({
        metric,
        direction,
        scope,
        wholeValues: [values[0]?.value ?? null, values[i + 1]?.value ?? null],
        clusters,
        alpha,
        unit: known?.unit,
      }),
    );
    return { name, metric, direction, unit: known?.unit, values, raw };
  });

  // One family per candidate: the tests of all its metrics.
  const adjusted = candidates.map((_, i) =>
    adjustFamily(
      rows.map((r) => ({ name: r.name, test: r.raw[i]?.test ?? null })),
      { adjust, alpha },
    ),
  );
  const metrics: MetricComparison[] = rows.map((row, r) => ({
    name: row.name,
    direction: row.direction,
    ...(row.unit === undefined ? {} : { unit: row.unit }),
    aggregate: row.metric?.aggregate ?? 'mean',
    values: row.values,
    deltas: row.raw.map((raw, i) =>
      finishDelta(raw, candidates[i]!.id, adjusted[i]?.[r] ?? null, {
        ...options,
        alpha,
        bounded: isBounded(row.unit ?? undefined) && row.metric?.aggregate !== 'sum',
        total: row.metric?.aggregate === 'sum',
      }),
    ),
  }));

  const pairs = scopes.map((scope) => pairComparison(scope, metrics));
  const domains = domainMap(experiments);
  const byDomain = scopes.flatMap((scope, i) => {
    const result = compareByDomain({
      baselineId: scope.baseline.id,
      candidateId: scope.candidate.id,
      shared: scope.shared,
      domains,
      clusters,
      rows: rows.map((row) => ({
        name: row.name,
        direction: row.direction,
        unit: row.unit,
        aggregate: row.metric?.aggregate ?? 'mean',
        raw: row.raw[i],
      })),
      weighting: options.weighting ?? 'equal',
      adjust,
      alpha,
    });
    return result === null ? [] : [result];
  });
  const labels = experimentLabels(experiments);
  const comparison: Omit<Comparison, 'violations'> = {
    experiments: experiments.map((e, i) => describe(e, labels[i] ?? e.id)),
    alpha,
    adjust,
    metrics,
    pairs,
    ...(byDomain.length === 0 ? {} : { by_domain: byDomain }),
    warnings: warningsFor(experiments, pairs, SMALL_SAMPLE_TASKS),
  };
  return {
    ...comparison,
    violations: options.thresholds ? checkRegressions(comparison, options.thresholds) : [],
  };
}

function finishDelta(
  raw: RawDelta,
  experimentId: string,
  paired: MetricDelta['paired'],
  options: CompareOptions & { readonly alpha: number; readonly bounded: boolean; readonly total: boolean },
): MetricDelta {
  const sequential =
    options.sequential && options.bounded
      ? sequentialVerdict(raw.differences, { alpha: options.alpha, margin: options.sequential.margin })
      : null;
  return {
    experiment_id: experimentId,
    baseline_value: raw.baseline_value,
    value: raw.value,
    ...raw.direction,
    paired: paired === null ? null : { ...paired, ...(options.total ? { scale: 'total' as const } : {}) },
    basis: raw.basis,
    ...(sequential ? { sequential } : {}),
  };
}

function pairComparison(scope: PairScope, metrics: readonly MetricComparison[]): PairComparison {
  const flakyIds = new Set(scope.flaky.map((t) => t.task_id));
  const flips = flippedTasks(scope.sharedBaseline, scope.sharedCandidate, flakyIds);
  const index = metrics[0]?.deltas.findIndex((d) => d.experiment_id === scope.candidate.id) ?? -1;
  const counts = metrics.flatMap((m) => {
    const n = m.deltas[index]?.paired?.n;
    return n === undefined ? [] : [n];
  });
  const smallest = counts.length === 0 ? scope.shared.length : Math.min(...counts);
  return {
    baseline_id: scope.baseline.id,
    experiment_id: scope.candidate.id,
    shared_tasks: scope.shared.length,
    total_tasks: scope.totalTasks,
    only_in_baseline: scope.onlyInBaseline,
    only_in_candidate: scope.onlyInCandidate,
    flaky: scope.flaky,
    excluded: scope.excluded,
    small_sample: scope.shared.length > 0 && smallest < SMALL_SAMPLE_TASKS,
    regressions: flips.regressions,
    improvements: flips.improvements,
  };
}
