import type { RunRecord } from '../core/run-record.ts';
import { clusteredStandardError, epochStandardError, groupBy } from '../stats/clustered.ts';
import { standardError, sum } from '../stats/descriptive.ts';
import { clusterLookup, emptyResult, metricResult } from './aggregate.ts';
import { defineBuiltin, meanMetric, selectTrials } from './define.ts';
import type { MetricInput } from './types.ts';

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
function costCoverage(records: readonly RunRecord[]): { partial_trials: number; unpriced_calls: number } {
  let partial = 0;
  let unpriced = 0;
  for (const r of records) {
    const calls = r.output.usage.unpriced_calls ?? 0;
    if (calls > 0 && r.cost_usd !== null) {
      partial++;
      unpriced += calls;
    }
  }
  return { partial_trials: partial, unpriced_calls: unpriced };
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
    return {
      ...metric,
      calculate: (input) => {
        const result = metric.calculate(input);
        return { ...result, details: { ...result.details, ...costCoverage(input.records) } };
      },
    };
  },
};

/** Per-task sums of known costs: the units a total's error bar is computed over. */
function taskTotals(input: MetricInput) {
  const { trials, skipped } = selectTrials(input.records, knownCost, { excludePending: false });
  const totals = [...groupBy(trials, (t) => t.task)].map(([task, group]) => ({
    task,
    value: sum(group.map((t) => t.value)),
  }));
  return { totals, trials: trials.length, unknownCost: skipped };
}

/**
 * Total cost, with the error bar of a total: T × SE of the per-task totals, where T is the number
 * of tasks — the spread of what rerunning the suite would cost.
 */
export const cost = defineBuiltin('cost', {
  unit: 'usd',
  aggregate: 'sum',
  bounds: [0, Number.POSITIVE_INFINITY],
  calculate(input, shape) {
    const { totals, trials, unknownCost } = taskTotals(input);
    const details = {
      trials,
      tasks: totals.length,
      unknown_cost: unknownCost,
      ...costCoverage(input.records),
    };
    if (totals.length === 0) return emptyResult(shape, details);
    const perTask = epochStandardError(totals, { clusterOf: clusterLookup(input), correction: 'cr1' });
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
  perTask: (input) => new Map(taskTotals(input).totals.map((t) => [t.task, t.value])),
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
  calculate(input, shape) {
    let unknownCost = 0;
    let pending = 0;
    const used = input.records.filter((record) => {
      if (record.outcome === 'pending') pending++;
      else if (record.cost_usd === null) unknownCost++;
      else return true;
      return false;
    });
    const tasks = [...groupBy(used, (r) => r.task_id)].map(([task, records]) => ({
      task,
      cost: sum(records.map((r) => r.cost_usd ?? 0)),
      successes: records.filter((r) => r.outcome === 'pass').length,
    }));
    const totalCost = sum(tasks.map((t) => t.cost));
    const successes = sum(tasks.map((t) => t.successes));
    const details: Record<string, unknown> = {
      trials: used.length,
      tasks: tasks.length,
      total_cost: totalCost,
      successes,
      unknown_cost: unknownCost,
      pending,
      ...costCoverage(used),
    };
    if (successes === 0) {
      return emptyResult(shape, {
        ...details,
        reason:
          used.length === 0
            ? 'no trials with a known cost'
            : 'no trial passed: cost per success is undefined',
      });
    }
    const ratio = totalCost / successes;
    const meanSuccesses = successes / tasks.length;
    const z = tasks.map((t) => ({ task: t.task, value: (t.cost - ratio * t.successes) / meanSuccesses }));
    const clusterOf = clusterLookup(input);
    const clustered = z.some((t) => clusterOf(t.task) !== undefined);
    const observations = z.map((t) => ({ value: t.value, cluster: clusterOf(t.task) ?? `task:${t.task}` }));
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
});
