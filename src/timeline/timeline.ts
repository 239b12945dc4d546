import type { DomainComparison } from '../compare/by-domain.ts';
import { compareExperiments } from '../compare/compare.ts';
import { metricForResult, perTaskValues } from '../compare/per-task.ts';
import type { MetricComparison } from '../compare/types.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Direction, Experiment } from '../core/experiment.ts';
import { type AdjustMethod, adjustPValues } from '../stats/multiplicity.ts';
import { lineageTrend } from '../stats/trend.ts';
import { type LineageOrder, lineageOrder, orderVersions, releasedOf } from './version-order.ts';

/** The seed's timeline columns: unplanned HITL, first-pass approval, cost per task, overall score. */
export const DEFAULT_TIMELINE_METRICS = [
  'hitl_unplanned',
  'first_pass_approval_rate',
  'cost_per_task',
  'overall_score',
] as const;
/** Used when no experiment has any of the defaults (suites without process metrics). */
const FALLBACK_METRICS = ['success_rate', 'accuracy', 'cost_per_task'] as const;

export interface TimelineOptions {
  readonly metrics?: readonly string[];
  /** Significance level of the tests, default 0.05. */
  readonly alpha?: number;
  /** Multiplicity rule over all step tests of the table, and over the trend tests: default `holm`. */
  readonly adjust?: AdjustMethod;
  /** A version run several times: its `latest` run (default), or all its runs `pooled` as epochs. */
  readonly perVersion?: 'latest' | 'pooled';
}

/** A change between consecutive versions, over the tasks both ran. */
export interface TimelineChange {
  readonly delta: number | null;
  readonly percent_label: string;
  /** The step's own paired test. */
  readonly p_value: number | null;
  /** Adjusted over every step test in the table (versions × metrics). */
  readonly p_adjusted: number | null;
  readonly significant: boolean;
  readonly test: string | null;
  readonly is_improvement: boolean;
  readonly is_regression: boolean;
  /** ▲ a significant rise, ▼ a significant fall, '' otherwise (colour says better or worse). */
  readonly mark: '▲' | '▼' | '';
}

/** A metric of one version, with its change against the previous version. */
export interface TimelineCell {
  readonly value: number | null;
  readonly formatted_value: string;
  /** Trials of that version still pending: the value covers the decided ones only. */
  readonly pending: number;
  /** Null for the first version. */
  readonly change: TimelineChange | null;
}

export interface TimelinePoint {
  /** The run shown (the latest one when pooled). */
  readonly experiment_id: string;
  /** Every run behind the point: one unless pooled. */
  readonly experiment_ids: readonly string[];
  readonly created_at: string;
  /** YYYY-MM-DD (UTC) of the run, or of `metadata.released` when the lineage is ordered by it. */
  readonly date: string;
  readonly version: string;
  readonly released?: string | undefined;
  /** One per `Timeline.metrics`. */
  readonly cells: readonly TimelineCell[];
  /**
   * When the step's shared tasks span several domains: each domain's paired test and the pooled
   * stratified test against the previous version (docs/statistics.md, "Across domains"), with
   * unadjusted p-values. Absent for the first version and for one domain.
   */
  readonly by_domain?: DomainComparison | undefined;
}

/** The whole lineage in one test per metric: a slope per version step, and first → last. */
export interface TimelineTrend {
  readonly metric: string;
  /** Mean change per version step (the mean of the per-task least-squares slopes). */
  readonly slope: number | null;
  readonly ci95: [number, number] | null;
  readonly p_value: number | null;
  /** Adjusted over the trend tests of all metrics. */
  readonly p_adjusted: number | null;
  readonly significant: boolean;
  readonly test: string;
  readonly df: number | null;
  /** Tasks every version ran (the trend is over them). */
  readonly tasks: number;
  readonly tasks_left_out: readonly string[];
  readonly first_last: {
    readonly delta: number | null;
    readonly ci95: [number, number] | null;
    readonly p_value: number | null;
    readonly test: string | null;
    readonly n: number;
  } | null;
  readonly is_improvement: boolean;
  readonly is_regression: boolean;
}

export interface Timeline {
  readonly harness: string;
  readonly suite: string;
  readonly alpha: number;
  readonly adjust: AdjustMethod;
  /** How the versions are ordered. */
  readonly order: LineageOrder;
  readonly per_version: 'latest' | 'pooled';
  readonly metrics: readonly {
    readonly name: string;
    readonly direction: Direction;
    readonly unit?: string;
  }[];
  /** One per version, first version first. */
  readonly points: readonly TimelinePoint[];
  /** One per metric. */
  readonly trends: readonly TimelineTrend[];
  readonly warnings: readonly string[];
}

function chooseMetrics(experiments: readonly Experiment[], requested?: readonly string[]): string[] {
  if (requested && requested.length > 0) return [...requested];
  const stored = new Set(
    experiments.flatMap((e) => e.metrics.filter((m) => m.value !== null).map((m) => m.name)),
  );
  const defaults = DEFAULT_TIMELINE_METRICS.filter((m) => stored.has(m));
  // cost_per_task alone says little about a lineage: prefer the outcome metrics then.
  if (defaults.some((m) => m !== 'cost_per_task')) return defaults;
  const fallback = FALLBACK_METRICS.filter((m) => stored.has(m));
  return fallback.length > 0 ? fallback : [...DEFAULT_TIMELINE_METRICS];
}

/** All runs of one version as one experiment: their attempts become epochs of one run. */
function pooled(runs: readonly Experiment[]): Experiment {
  const latest = runs.at(-1)!;
  let offset = 0;
  const records = runs.flatMap((run) => {
    const shifted = run.records.map((r) => ({ ...r, epoch: r.epoch + offset }));
    offset += Math.max(run.settings.epochs, ...run.records.map((r) => r.epoch + 1));
    return shifted;
  });
  return { ...latest, records, metrics: [], settings: { ...latest.settings, epochs: offset } };
}

function mark(significant: boolean, delta: number | null): TimelineChange['mark'] {
  if (!significant || delta === null || delta === 0) return '';
  return delta > 0 ? '▲' : '▼';
}

/**
 * One harness lineage on one suite, one point per version in version order, each with the chosen
 * metrics and its change against the version before (a paired test over the tasks both ran,
 * adjusted over every step of the table), plus a trend test per metric over the whole lineage.
 * The caller picks the lineage (same harness name and suite); mixed suites warn.
 *
 * @example buildTimeline(experiments).points.map((p) => p.version) // ['0.2.0', '0.3.0', ...]
 */
export function buildTimeline(experiments: readonly Experiment[], options: TimelineOptions = {}): Timeline {
  if (experiments.length === 0) throw new HarnessEvalError('not_found', 'no experiments for the timeline');
  const alpha = options.alpha ?? 0.05;
  const adjust = options.adjust ?? 'holm';
  const perVersion = options.perVersion ?? 'latest';
  const order = lineageOrder(experiments);
  const versions = orderVersions(experiments, order);
  const shown = versions.map((v) => (perVersion === 'pooled' ? pooled(v.runs) : v.runs.at(-1)!));
  const names = chooseMetrics(experiments, options.metrics);

  // Every step's comparison, unadjusted; the table's family is adjusted below.
  const steps = shown.map((experiment, i) =>
    compareExperiments([shown[i - 1] ?? experiment, experiment], { metrics: names, alpha, adjust: 'none' }),
  );
  const stepRows = steps.map((c) => c.metrics);
  const family = adjustPValues(
    stepRows.slice(1).flatMap((rows) => rows.map((m) => m.deltas[0]?.paired?.p_value ?? null)),
    adjust,
  );
  const directions = new Map<string, { direction: Direction; unit?: string }>();
  const points: TimelinePoint[] = shown.map((experiment, i) => {
    const cells = (stepRows[i] ?? []).map((m: MetricComparison, j): TimelineCell => {
      if (m.direction !== 'neutral' || !directions.has(m.name))
        directions.set(m.name, { direction: m.direction, ...(m.unit ? { unit: m.unit } : {}) });
      const value = m.values[1] ?? { value: null, formatted_value: 'n/a' };
      const d = m.deltas[0];
      const pendingDetail = experiment.metrics.find((x) => x.name === m.name)?.details['pending'];
      const pending = typeof pendingDetail === 'number' ? pendingDetail : 0;
      if (i === 0 || d === undefined)
        return { value: value.value, formatted_value: value.formatted_value, pending, change: null };
      const pAdjusted = family[(i - 1) * names.length + j] ?? null;
      const significant = pAdjusted !== null && pAdjusted < alpha;
      return {
        value: value.value,
        formatted_value: value.formatted_value,
        pending,
        change: {
          delta: d.delta,
          percent_label: d.percent_label,
          p_value: d.paired?.p_value ?? null,
          p_adjusted: pAdjusted,
          significant,
          test: d.paired?.test ?? null,
          is_improvement: d.is_improvement,
          is_regression: d.is_regression,
          mark: mark(significant, d.delta),
        },
      };
    });
    const released = releasedOf(experiment);
    const byDomain = i === 0 ? undefined : steps[i]?.by_domain?.[0];
    return {
      experiment_id: experiment.id,
      experiment_ids: perVersion === 'pooled' ? (versions[i]?.runs ?? []).map((e) => e.id) : [experiment.id],
      created_at: experiment.created_at,
      date: (order === 'released' && released
        ? new Date(released).toISOString()
        : experiment.created_at
      ).slice(0, 10),
      version: experiment.harness.version,
      ...(released ? { released } : {}),
      cells,
      ...(byDomain === undefined ? {} : { by_domain: byDomain }),
    };
  });

  const trends = trendsOf(shown, names, directions, { alpha, adjust });
  return {
    harness: [...new Set(shown.map((e) => e.harness.name))].join(', '),
    suite: [...new Set(shown.map((e) => e.suite.id))].join(', '),
    alpha,
    adjust,
    order,
    per_version: perVersion,
    metrics: names.map((name) => ({ name, ...(directions.get(name) ?? { direction: 'neutral' as const }) })),
    points,
    trends,
    warnings: timelineWarnings(shown, versions, perVersion),
  };
}

function trendsOf(
  shown: readonly Experiment[],
  names: readonly string[],
  directions: ReadonlyMap<string, { direction: Direction }>,
  options: { readonly alpha: number; readonly adjust: AdjustMethod },
): TimelineTrend[] {
  const first = shown[0]!;
  const last = shown.at(-1)!;
  const ends =
    shown.length > 1
      ? compareExperiments([first, last], { metrics: names, alpha: options.alpha, adjust: 'none' })
      : null;
  const raw = names.map((name, j) => {
    const metric = metricForResult(name);
    const perVersion = shown.map((e) => perTaskValues(metric, e) ?? new Map<string, number>());
    const trend = lineageTrend(perVersion, { alpha: options.alpha });
    const end = ends?.metrics[j]?.deltas[0];
    return { name, trend, end };
  });
  const adjusted = adjustPValues(
    raw.map((r) => r.trend.p_value),
    options.adjust,
  );
  return raw.map(({ name, trend, end }, j): TimelineTrend => {
    const p = adjusted[j] ?? null;
    const direction = directions.get(name)?.direction ?? 'neutral';
    const slope = trend.slope;
    const significant = p !== null && p < options.alpha;
    const up = slope !== null && slope > 0;
    const down = slope !== null && slope < 0;
    return {
      metric: name,
      slope,
      ci95: trend.ci95,
      p_value: trend.p_value,
      p_adjusted: p,
      significant,
      test: trend.test === 'paired_t' ? 'per_task_slope_t' : trend.test,
      df: trend.df,
      tasks: trend.n,
      tasks_left_out: trend.tasks_left_out,
      first_last:
        end === undefined
          ? null
          : {
              delta: end.delta,
              ci95: end.paired?.ci95 ?? null,
              p_value: end.paired?.p_value ?? null,
              test: end.paired?.test ?? null,
              n: end.paired?.n ?? 0,
            },
      is_improvement: direction === 'higher_is_better' ? up : direction === 'lower_is_better' ? down : false,
      is_regression: direction === 'higher_is_better' ? down : direction === 'lower_is_better' ? up : false,
    };
  });
}

function timelineWarnings(
  shown: readonly Experiment[],
  versions: readonly { version: string; runs: readonly Experiment[] }[],
  perVersion: 'latest' | 'pooled',
): string[] {
  const warnings: string[] = [];
  const harnesses = [...new Set(shown.map((e) => e.harness.name))];
  const suites = [...new Set(shown.map((e) => e.suite.id))];
  if (harnesses.length > 1) warnings.push(`the timeline mixes harnesses: ${harnesses.join(', ')}`);
  if (suites.length > 1) warnings.push(`the timeline mixes suites: ${suites.join(', ')}`);
  const hashes = new Set(shown.flatMap((e) => (e.suite.hash ? [e.suite.hash] : [])));
  if (suites.length === 1 && hashes.size > 1)
    warnings.push(`the suite changed between versions (${hashes.size} different suite hashes)`);
  const repeated = versions.filter((v) => v.runs.length > 1);
  if (repeated.length > 0 && perVersion === 'latest') {
    warnings.push(
      `${repeated.map((v) => `${v.version} (${v.runs.length} runs)`).join(', ')}: the latest run of each version is shown; --per-version pooled pools them`,
    );
  }
  return warnings;
}
