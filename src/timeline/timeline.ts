import { compareExperiments } from '../compare/compare.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Direction, Experiment } from '../core/experiment.ts';

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
  /** Significance level of the version-to-version paired tests, default 0.05. */
  readonly alpha?: number;
}

/** A metric of one version, with its change against the previous version. */
export interface TimelineCell {
  readonly value: number | null;
  readonly formatted_value: string;
  /** Trials of that version still pending: the value covers the decided ones only. */
  readonly pending: number;
  /** Null for the first version. */
  readonly change: {
    readonly delta: number | null;
    readonly percent_label: string;
    readonly p_value: number | null;
    readonly significant: boolean;
    readonly is_improvement: boolean;
    readonly is_regression: boolean;
  } | null;
}

export interface TimelinePoint {
  readonly experiment_id: string;
  readonly created_at: string;
  /** YYYY-MM-DD (UTC). */
  readonly date: string;
  readonly version: string;
  /** One per `Timeline.metrics`. */
  readonly cells: readonly TimelineCell[];
}

export interface Timeline {
  readonly harness: string;
  readonly suite: string;
  readonly alpha: number;
  readonly metrics: readonly { readonly name: string; readonly direction: Direction }[];
  /** Oldest first. */
  readonly points: readonly TimelinePoint[];
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

/**
 * The experiments of one harness lineage on one suite in time order, each with the chosen
 * metrics and — from a paired test against the version before it — whether the change was
 * significant. The caller picks the lineage (same harness name and suite); mixed suites warn.
 *
 * @example buildTimeline(experiments).points.map((p) => p.version) // ['0.2.0', '0.3.0', ...]
 */
export function buildTimeline(experiments: readonly Experiment[], options: TimelineOptions = {}): Timeline {
  if (experiments.length === 0) throw new HarnessEvalError('not_found', 'no experiments for the timeline');
  const alpha = options.alpha ?? 0.05;
  const ordered = [...experiments].sort(
    (x, y) => x.created_at.localeCompare(y.created_at) || x.id.localeCompare(y.id),
  );
  const names = chooseMetrics(ordered, options.metrics);
  const points: TimelinePoint[] = [];
  const directions = new Map<string, Direction>();
  for (const [i, experiment] of ordered.entries()) {
    const previous = ordered[i - 1];
    // A one-experiment comparison is not allowed, so the first point compares with itself and drops the change.
    const comparison = compareExperiments([previous ?? experiment, experiment], { metrics: names, alpha });
    const cells = comparison.metrics.map((m): TimelineCell => {
      if (m.direction !== 'neutral' || !directions.has(m.name)) directions.set(m.name, m.direction);
      const value = m.values[1] ?? { value: null, formatted_value: 'n/a' };
      const d = m.deltas[0];
      const pending = experiment.metrics.find((x) => x.name === m.name)?.details['pending'];
      return {
        value: value.value,
        formatted_value: value.formatted_value,
        pending: typeof pending === 'number' ? pending : 0,
        change:
          previous === undefined || d === undefined
            ? null
            : {
                delta: d.delta,
                percent_label: d.percent_label,
                p_value: d.paired?.p_value ?? null,
                significant: d.paired?.significant ?? false,
                is_improvement: d.is_improvement,
                is_regression: d.is_regression,
              },
      };
    });
    points.push({
      experiment_id: experiment.id,
      created_at: experiment.created_at,
      date: experiment.created_at.slice(0, 10),
      version: experiment.harness.version,
      cells,
    });
  }
  const harnesses = [...new Set(ordered.map((e) => e.harness.name))];
  const suites = [...new Set(ordered.map((e) => e.suite.id))];
  const warnings: string[] = [];
  if (harnesses.length > 1) warnings.push(`the timeline mixes harnesses: ${harnesses.join(', ')}`);
  if (suites.length > 1) warnings.push(`the timeline mixes suites: ${suites.join(', ')}`);
  const hashes = new Set(ordered.flatMap((e) => (e.suite.hash ? [e.suite.hash] : [])));
  if (suites.length === 1 && hashes.size > 1)
    warnings.push(`the suite changed between versions (${hashes.size} different suite hashes)`);
  return {
    harness: harnesses.join(', '),
    suite: suites.join(', '),
    alpha,
    metrics: names.map((name) => ({ name, direction: directions.get(name) ?? 'neutral' })),
    points,
    warnings,
  };
}
