import type { Experiment, MetricResult } from '../core/experiment.ts';
import { experimentLabels } from './labels.ts';

/**
 * The cost–score trade-off across harness configurations: each experiment's mean cost per task
 * (the `cost_per_task` metric) against its overall score with the score's 95% interval, and
 * which configurations are on the Pareto frontier (no other is cheaper and at least as good, or
 * as cheap and better).
 *
 * A cost that is only partly known (calls without a price, or trials whose cost nobody reported)
 * is a lower bound of unknown slack, and a score with pending trials may still move: such a point
 * is `incomplete`, never on the frontier and never used to rule another point out. An experiment with no cost or no score is `missing`,
 * with the reason, and is not drawn.
 */
export interface CostScorePoint {
  readonly experiment_id: string;
  readonly label: string;
  /** Mean cost of a trial, USD, over the trials with a known cost. */
  readonly cost: number;
  readonly score: number;
  readonly score_ci95: readonly [number, number] | null;
  /** Model calls that spent tokens without a price, over the trials counted in `cost`. */
  readonly unpriced_calls: number;
  /** Trials left out of `cost` because their cost is unknown. */
  readonly unknown_cost_trials: number;
  /** Trials waiting for a grade: the score covers the decided ones only and may still move. */
  readonly pending_trials: number;
}

export type FrontierStatus = 'frontier' | 'dominated' | 'incomplete';

export interface RankedPoint extends CostScorePoint {
  readonly status: FrontierStatus;
}

export interface MissingCostScore {
  readonly experiment_id: string;
  readonly label: string;
  readonly reason: string;
}

export interface CostScoreChartData {
  readonly points: readonly RankedPoint[];
  readonly missing: readonly MissingCostScore[];
}

/** The cost is complete: every trial priced, every call priced. */
export function costIsComplete(point: CostScorePoint): boolean {
  return point.unpriced_calls === 0 && point.unknown_cost_trials === 0;
}

/** Both coordinates are final: a complete cost and no pending trial. */
export function isSettled(point: CostScorePoint): boolean {
  return costIsComplete(point) && point.pending_trials === 0;
}

/** `a` dominates `b`: no dearer, no worse, and strictly better on one of the two. */
function dominates(a: CostScorePoint, b: CostScorePoint): boolean {
  return a.cost <= b.cost && a.score >= b.score && (a.cost < b.cost || a.score > b.score);
}

/**
 * Each point's place: `frontier` when no settled point dominates it, `dominated` otherwise,
 * `incomplete` for a point whose cost is partial or whose score still waits for grades.
 * Identical points tie on the frontier together.
 */
export function paretoFrontier(points: readonly CostScorePoint[]): RankedPoint[] {
  const complete = points.filter(isSettled);
  return points.map((p) => {
    if (!isSettled(p)) return { ...p, status: 'incomplete' };
    const beaten = complete.some((q) => q !== p && dominates(q, p));
    return { ...p, status: beaten ? 'dominated' : 'frontier' };
  });
}

function metric(experiment: Experiment, name: string): MetricResult | undefined {
  return experiment.metrics.find((m) => m.name === name);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** The chart's data for the experiments of a comparison, labelled as its columns are. */
export function costScoreData(experiments: readonly Experiment[]): CostScoreChartData {
  const labels = experimentLabels(experiments);
  const points: CostScorePoint[] = [];
  const missing: MissingCostScore[] = [];
  experiments.forEach((experiment, i) => {
    const label = labels[i] ?? experiment.id;
    const cost = metric(experiment, 'cost_per_task');
    const score = metric(experiment, 'overall_score');
    const costValue = cost?.value ?? null;
    const scoreValue = score?.value ?? null;
    if (costValue === null || scoreValue === null) {
      const reason =
        costValue === null
          ? 'no cost recorded (no trial reported a cost, and no price was known)'
          : 'no overall score (no decided trial)';
      missing.push({ experiment_id: experiment.id, label, reason });
      return;
    }
    points.push({
      experiment_id: experiment.id,
      label,
      cost: costValue,
      score: scoreValue,
      score_ci95: score?.ci95 ?? null,
      unpriced_calls: count(cost?.details['unpriced_calls']),
      unknown_cost_trials: count(cost?.details['unknown_cost']),
      pending_trials: count(score?.details['pending']),
    });
  });
  return { points: paretoFrontier(points), missing };
}
