import type { RunRecord } from '../core/run-record.ts';
import { type BootstrapResult, bootstrapCountsCi } from '../stats/bootstrap.ts';
import { groupBy } from '../stats/clustered.ts';
import { sortedQuantile } from '../stats/descriptive.ts';
import { clusterLookup, emptyResult, metricResult } from './aggregate.ts';
import { defineBuiltin, meanMetric, selectTrials } from './define.ts';
import type { MetricInput } from './types.ts';

/**
 * A trial's agent latency in seconds: what the adapter measured around the agent call; null when
 * it measured none (0, the schema default) — never the trial's duration in its place, which also
 * holds the workspace copy and the checks. Pending trials ran and took time, so they count.
 */
export function agentLatencyOf(record: RunRecord): number | null {
  return record.output.latency > 0 ? record.output.latency : null;
}

export const agentLatency = meanMetric('agent_latency', {
  unit: 'seconds',
  excludePending: false,
  trialValue: agentLatencyOf,
  skippedAs: 'unmeasured',
});

/** Wall clock of a trial: workspace, agent, protected-file restore and every check. */
export const trialDuration = meanMetric('trial_duration', {
  unit: 'seconds',
  excludePending: false,
  trialValue: (record) => record.duration_seconds,
});

/** Fixed, so that the same records always give the same interval. */
const BOOTSTRAP_SEED = 0x5eed;
const BOOTSTRAP_RESAMPLES = 1000;

/**
 * The type-7 p-quantile of a resample's units pooled, given how often each unit was drawn
 * (`counts[unit]`, as `bootstrapCountsCi` passes them). Sorting every resample of 10,000 trials a
 * thousand times takes seconds; instead the values are sorted once and each resample walks them,
 * weighting each value by its unit's count: O(N) per resample and the same answer as sorting the
 * pooled sample.
 */
export function pooledQuantile(
  units: readonly (readonly number[])[],
  p: number,
): (counts: Int32Array) => number | null {
  // Type 7 is symmetric, Q_p(x) = -Q_{1-p}(-x): walking from the nearer end halves the work for p95.
  if (p > 0.5) {
    const lower = pooledQuantile(
      units.map((values) => values.map((v) => -v)),
      1 - p,
    );
    return (counts) => {
      const q = lower(counts);
      return q === null ? null : -q;
    };
  }
  const entries = units.flatMap((values, unit) => values.map((value) => ({ value, unit })));
  entries.sort((a, b) => a.value - b.value);
  const values = Float64Array.from(entries, (e) => e.value);
  const owners = Int32Array.from(entries, (e) => e.unit);
  const sizes = Int32Array.from(units, (u) => u.length);
  const n = values.length;
  // A resample draws as many units as there are; when every unit holds as many values (one per
  // task, no clusters), the pooled size is the same in every resample.
  const uniform = sizes.every((size) => size === sizes[0]) ? n : undefined;
  return (draws) => {
    let size = uniform ?? 0;
    if (uniform === undefined)
      for (let unit = 0; unit < draws.length; unit++) size += draws[unit]! * sizes[unit]!;
    if (size === 0) return null;
    const h = (size - 1) * p;
    const lo = Math.floor(h);
    let seen = 0;
    let i = 0;
    for (; i < n; i++) {
      seen += draws[owners[i]!]!;
      if (seen > lo) break;
    }
    const atLo = values[i]!;
    // Rank lo + 1 is the same value when this value was drawn more than once past lo.
    if (seen > lo + 1 || h === lo) return atLo;
    for (i++; i < n; i++) if (draws[owners[i]!]! > 0) return atLo + (h - lo) * (values[i]! - atLo);
    return atLo;
  };
}

/** The percentiles reported as metrics: one resampling of the units serves them all. */
const PERCENTILES = [0.5, 0.95] as const;
const bootstraps = new WeakMap<MetricInput, ReadonlyMap<number, BootstrapResult | null>>();

/**
 * Bootstrap results for every reported percentile over `units`, computed once per metric input:
 * agent_latency_p50 and agent_latency_p95 draw the same resamples (same seed), so the second one reuses them.
 */
function percentileBootstrap(
  input: MetricInput,
  units: readonly (readonly number[])[],
): ReadonlyMap<number, BootstrapResult | null> {
  const cached = bootstraps.get(input);
  if (cached !== undefined) return cached;
  const results = bootstrapCountsCi(
    units.length,
    PERCENTILES.map((p) => pooledQuantile(units, p)),
    { seed: BOOTSTRAP_SEED, resamples: BOOTSTRAP_RESAMPLES },
  );
  const byPercentile = new Map(PERCENTILES.map((p, i) => [p, results[i] ?? null]));
  bootstraps.set(input, byPercentile);
  return byPercentile;
}

function percentileMetric(name: 'agent_latency_p50' | 'agent_latency_p95', p: (typeof PERCENTILES)[number]) {
  return defineBuiltin(name, {
    unit: 'seconds',
    calculate(input: MetricInput, shape) {
      const { trials } = selectTrials(input.records, agentLatencyOf, { excludePending: false });
      if (trials.length === 0) return emptyResult(shape, { trials: 0, tasks: 0 });
      const value = sortedQuantile(Float64Array.from(trials.map((t) => t.value)).sort(), p);
      // A percentile has no CLT formula; resample whole clusters (or tasks) so that epochs of one
      // task stay together, and pool their latencies.
      const clusterOf = clusterLookup(input);
      const units = [...groupBy(trials, (t) => clusterOf(t.task) ?? `task:${t.task}`).values()].map((group) =>
        group.map((t) => t.value),
      );
      const tasks = new Set(trials.map((t) => t.task)).size;
      const boot =
        units.length >= 2 && input.valueOnly !== true ? percentileBootstrap(input, units).get(p) : undefined;
      // The percentile interval is the honest one for a skewed statistic, not ±t·SE.
      return metricResult(
        shape,
        { value, stderr: boot?.stderr ?? null, n: tasks },
        {
          trials: trials.length,
          tasks,
          quantile: p,
          quantile_method: 'linear interpolation (type 7)',
          stderr_method: 'bootstrap',
          bootstrap: { seed: BOOTSTRAP_SEED, resamples: BOOTSTRAP_RESAMPLES, units: units.length },
        },
        { ci: boot ? [Math.max(0, boot.ci[0]), boot.ci[1]] : null, method: 'bootstrap_percentile' },
      );
    },
  });
}

export const agentLatencyP50 = percentileMetric('agent_latency_p50', 0.5);
export const agentLatencyP95 = percentileMetric('agent_latency_p95', 0.95);
