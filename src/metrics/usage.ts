import type { RunRecord } from '../core/run-record.ts';
import { clusteredStandardError, epochStandardError } from '../stats/clustered.ts';
import { standardError, sum } from '../stats/descriptive.ts';
import { clusterLookup, emptyResult, metricResult } from './aggregate.ts';
import { defineBuiltin, meanMetric } from './define.ts';
import { contextOf, type FoldContext, foldAll, type MetricFold, Tally, TaskSums } from './fold.ts';

/**
 * Token and cost metrics. Every trial that ran spent tokens and money, pending or not, so none is
 * excluded for its outcome. A trial whose cost is unknown (`cost_usd: null`: nobody reported it and
 * no price was known) is left out of the cost metrics and counted in `details.unknown_cost`.
 */

/**
 * Tokens as the adapter reported them, else as the harness's trackers counted them; null (left
 * out, counted in `details.unknown_tokens`) when nobody counted them at all.
 */
function tokens(record: RunRecord, reported: number, tracked: number): number | null {
  if (reported > 0) return reported;
  if (tracked > 0) return tracked;
  return record.output.usage.tokens_unknown === true ? null : 0;
}

export const tokensIn = meanMetric('tokens_in', {
  unit: 'tokens',
  excludePending: false,
  trialValue: (r) => tokens(r, r.output.usage.tokens_in, r.metrics.tokens_in),
  skippedAs: 'unknown_tokens',
});

export const tokensOut = meanMetric('tokens_out', {
  unit: 'tokens',
  excludePending: false,
  trialValue: (r) => tokens(r, r.output.usage.tokens_out, r.metrics.tokens_out),
  skippedAs: 'unknown_tokens',
});

const knownCost = (record: RunRecord): number | null => record.cost_usd;

/**
 * Trials whose cost is partial (some model calls had no price) and how many calls were unpriced:
 * every cost figure carries them, so that a partial sum is never read as the whole cost.
 */
class CostCoverage {
  partial = 0;
  unpriced = 0;

  add(r: RunRecord): void {
    const calls = r.output.usage.unpriced_calls ?? 0;
    if (calls > 0 && r.cost_usd !== null) {
      this.partial++;
      this.unpriced += calls;
    }
  }

  result(): { partial_trials: number; unpriced_calls: number } {
    return { partial_trials: this.partial, unpriced_calls: this.unpriced };
  }
}

const costPerTaskMean = meanMetric('cost_per_task', {
  unit: 'usd',
  excludePending: false,
  trialValue: knownCost,
  skippedAs: 'unknown_cost',
});

/** Mean cost of a trial, over trials with a known cost. */
export const costPerTask: typeof costPerTaskMean = {
  ...costPerTaskMean,
  create(options) {
    const metric = costPerTaskMean.create(options);
    const fold = (context: FoldContext): MetricFold => {
      const mean = metric.fold!(context);
      const coverage = new CostCoverage();
      return {
        add(record) {
          mean.add(record);
          coverage.add(record);
        },
        result(o) {
          const result = mean.result(o);
          return { ...result, details: { ...result.details, ...coverage.result() } };
        },
      };
    };
    return {
      ...metric,
      calculate: (input) => foldAll(fold(contextOf(input)), input.records, input.valueOnly),
      fold,
    };
  },
};

/** Per-task sums of known costs: the units a total's error bar is computed over. */
class TaskCosts {
  readonly totals = new TaskSums();
  unknownCost = 0;
  readonly coverage = new CostCoverage();

  add(record: RunRecord): void {
    this.coverage.add(record);
    const value = knownCost(record);
    if (value === null || !Number.isFinite(value)) this.unknownCost++;
    else this.totals.add(record.task_id, value);
  }
}

/**
 * Total cost, with the error bar of a total: T × SE of the per-task totals, where T is the number
 * of tasks — the spread of what rerunning the suite would cost.
 */
export const cost = defineBuiltin('cost', {
  unit: 'usd',
  aggregate: 'sum',
  bounds: [0, Number.POSITIVE_INFINITY],
  fold(context, shape) {
    const costs = new TaskCosts();
    return {
      add: (record) => costs.add(record),
      result() {
        const totals = [...costs.totals.sums()].map(([task, value]) => ({ task, value }));
        const details = {
          trials: costs.totals.trials,
          tasks: totals.length,
          unknown_cost: costs.unknownCost,
          ...costs.coverage.result(),
        };
        if (totals.length === 0) return emptyResult(shape, details);
        const perTask = epochStandardError(totals, { clusterOf: clusterLookup(context), correction: 'cr1' });
        const value = sum(totals.map((t) => t.value));
        const stderr = perTask.stderr === null ? null : perTask.stderr * totals.length;
        return metricResult(
          shape,
          { value, stderr, n: totals.length, ...(perTask.clustered ? { df: perTask.clusters - 1 } : {}) },
          {
            ...details,
            stderr_method: perTask.clustered ? 'clustered_cr1' : 'clt_over_task_means',
          },
          { method: perTask.clustered ? 'cluster_t' : 't' },
        );
      },
    };
  },
  perTask: (input) => {
    const costs = new TaskCosts();
    for (const record of input.records) costs.add(record);
    return costs.totals.sums();
  },
});

/**
 * Total cost / passed trials, over trials with a known cost and an outcome (pending trials are
 * neither successes nor failures yet). Its error bar is the delta-method (linearization) SE of a
 * ratio of per-task totals: with c_i, s_i the cost and passes of task i, R = Σc / Σs and
 * z_i = (c_i - R s_i) / s̄, SE(R) = SE of the mean of z (clustered when tasks carry clusters).
 */
export const costPerSuccess = defineBuiltin('cost_per_success', {
  unit: 'usd',
  bounds: [0, Number.POSITIVE_INFINITY],
  fold(context, shape) {
    let unknownCost = 0;
    let pending = 0;
    const costs = new TaskSums();
    const passes = new Tally();
    const coverage = new CostCoverage();
    return {
      add(record) {
        if (record.outcome === 'pending') pending++;
        else if (record.cost_usd === null) unknownCost++;
        else {
          costs.add(record.task_id, record.cost_usd);
          if (record.outcome === 'pass') passes.add(record.task_id);
          coverage.add(record);
        }
      },
      result() {
        const tasks = [...costs.sums()].map(([task, total]) => ({
          task,
          cost: total,
          successes: passes.get(task),
        }));
        const totalCost = sum(tasks.map((t) => t.cost));
        const successes = sum(tasks.map((t) => t.successes));
        const details: Record<string, unknown> = {
          trials: costs.trials,
          tasks: tasks.length,
          total_cost: totalCost,
          successes,
          unknown_cost: unknownCost,
          pending,
          ...coverage.result(),
        };
        if (successes === 0) {
          return emptyResult(shape, {
            ...details,
            reason:
              costs.trials === 0
                ? 'no trials with a known cost'
                : 'no trial passed: cost per success is undefined',
          });
        }
        const ratio = totalCost / successes;
        const meanSuccesses = successes / tasks.length;
        const z = tasks.map((t) => ({ task: t.task, value: (t.cost - ratio * t.successes) / meanSuccesses }));
        const clusterOf = clusterLookup(context);
        const clustered = z.some((t) => clusterOf(t.task) !== undefined);
        const observations = z.map((t) => ({
          value: t.value,
          cluster: clusterOf(t.task) ?? `task:${t.task}`,
        }));
        const stderr = clustered
          ? (clusteredStandardError(observations, { correction: 'cr1' })?.stderr ?? null)
          : standardError(z.map((t) => t.value));
        const clusters = new Set(observations.map((o) => o.cluster)).size;
        return metricResult(
          shape,
          { value: ratio, stderr, n: tasks.length, ...(clustered ? { df: clusters - 1 } : {}) },
          {
            ...details,
            stderr_method: clustered ? 'delta_method_clustered_cr1' : 'delta_method',
          },
          { method: 'delta_method_t' },
        );
      },
    };
  },
});
