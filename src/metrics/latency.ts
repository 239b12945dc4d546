import type { RunRecord } from '../core/run-record.ts';
import { type BootstrapResult, bootstrapCountsCi } from '../stats/bootstrap.ts';
import { sortedQuantile } from '../stats/descriptive.ts';
import { ascendingOrder } from '../stats/sort-order.ts';
import { clusterLookup, emptyResult, metricResult } from './aggregate.ts';
import { defineBuiltin, meanMetric } from './define.ts';
import type { FoldContext } from './fold.ts';

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

/** Every unit's values pooled and sorted ascending (ties in pooled order), with each one's unit. */
export interface SortedPool {
  readonly values: Float64Array;
  readonly owners: Int32Array;
  /** How many values each unit holds. */
  readonly sizes: Int32Array;
}

/**
 * Sorts the pooled values once, in typed arrays: 36 bytes a value at the peak (an object per
 * value, as before, cost ~100 bytes and twice over: 200 MB at the end of a 1,000,000-trial run).
 */
export function sortedPool(units: readonly (readonly number[])[]): SortedPool {
  const column = new LatencyColumn();
  units.forEach((unitValues, unit) => {
    for (const value of unitValues) column.push(value, unit);
  });
  return column.sorted(units.length);
}

/**
 * Latencies and their units in the order they came, in typed arrays that double as they fill:
 * 12 bytes a trial outside V8's heap. Held as numbers in arrays, a million latencies were 8 MB of
 * live heap, and V8 lets its heap run to a few times what is live before it collects: ~40 MB
 * more at the peak of a million-trial run.
 */
export class LatencyColumn {
  #values = new Float64Array(1024);
  #units = new Int32Array(1024);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(value: number, unit: number): void {
    if (this.#length === this.#values.length) {
      const values = new Float64Array(this.#length * 2);
      values.set(this.#values);
      this.#values = values;
      const units = new Int32Array(this.#length * 2);
      units.set(this.#units);
      this.#units = units;
    }
    this.#values[this.#length] = value;
    this.#units[this.#length++] = unit;
  }

  /**
   * The values sorted ascending with their units (`unitCount` units, numbered from 0). Equal
   * values keep the order they came in; which unit holds which of equal values does not change
   * a resample's quantile, which depends only on the multiset of values it draws.
   */
  sorted(unitCount: number): SortedPool {
    const n = this.#length;
    const pooled = this.#values.subarray(0, n);
    // A stable sort of positions: equal values keep their pooled order.
    const order = ascendingOrder(pooled);
    const values = new Float64Array(n);
    const owners = new Int32Array(n);
    const sizes = new Int32Array(unitCount);
    for (let i = 0; i < n; i++) {
      const from = order[i]!;
      values[i] = pooled[from]!;
      const unit = this.#units[from]!;
      owners[i] = unit;
      sizes[unit]! += 1;
    }
    return { values, owners, sizes };
  }
}

/**
 * The type-7 p-quantile of a resample's units pooled, given how often each unit was drawn
 * (`counts[unit]`, as `bootstrapCountsCi` passes them). Sorting every resample of 10,000 trials a
 * thousand times takes seconds; instead the values are sorted once (`sortedPool`) and each
 * resample walks them, weighting each value by its unit's count: O(N) per resample and the same
 * answer as sorting the pooled sample.
 */
export function pooledQuantile(
  units: readonly (readonly number[])[] | SortedPool,
  p: number,
): (counts: Int32Array) => number | null {
  const { values, owners, sizes } = Array.isArray(units) ? sortedPool(units) : (units as SortedPool);
  const n = values.length;
  // Type 7 is symmetric, Q_p(x) = -Q_{1-p}(-x): above the median the walk runs down from the top
  // over the negated values (negation is exact), which halves the work for p95.
  const down = p > 0.5;
  const sign = down ? -1 : 1;
  const q = down ? 1 - p : p;
  const at = (i: number) => (down ? n - 1 - i : i);
  // A resample draws as many units as there are; when every unit holds as many values (one per
  // task, no clusters), the pooled size is the same in every resample.
  const uniform = sizes.every((size) => size === sizes[0]) ? n : undefined;
  return (draws) => {
    let size = uniform ?? 0;
    if (uniform === undefined)
      for (let unit = 0; unit < draws.length; unit++) size += draws[unit]! * sizes[unit]!;
    if (size === 0) return null;
    const h = (size - 1) * q;
    const lo = Math.floor(h);
    let seen = 0;
    let i = 0;
    // Two loops rather than `at(i)` in one: this walk is most of the bootstrap's time after the
    // draws (44 -> 29 ms for 1,000 resamples of 10,000 trials).
    if (down)
      for (; i < n; i++) {
        seen += draws[owners[n - 1 - i]!]!;
        if (seen > lo) break;
      }
    else
      for (; i < n; i++) {
        seen += draws[owners[i]!]!;
        if (seen > lo) break;
      }
    const atLo = sign * values[at(i)]!;
    // Rank lo + 1 is the same value when this value was drawn more than once past lo.
    let result = atLo;
    if (!(seen > lo + 1 || h === lo))
      for (i++; i < n; i++)
        if (draws[owners[at(i)]!]! > 0) {
          result = atLo + (h - lo) * (sign * values[at(i)]! - atLo);
          break;
        }
    return sign * result;
  };
}

/** The percentiles reported as metrics: one resampling of the units serves them all. */
const PERCENTILES = [0.5, 0.95] as const;

/**
 * Every measured latency, by resampling unit (cluster, else task) in first-seen order: the
 * percentiles are exact, so they keep each trial's latency and its unit (12 bytes, outside the heap).
 * The percentile metrics of one input share one pool, filled by the fold that made it, and one
 * bootstrap (same seed): agent_latency_p95 reuses agent_latency_p50's resamples.
 */
interface LatencyPool {
  readonly owner: object;
  /** Each unit's number, in first-seen order. */
  readonly units: Map<string, number>;
  readonly latencies: LatencyColumn;
  readonly tasks: Set<string>;
  trials: number;
  sorted?: SortedPool | undefined;
  bootstrap?: ReadonlyMap<number, BootstrapResult | null> | undefined;
}

/** The pool's latencies sorted, once for every percentile and the bootstrap. */
function sortedLatencies(pool: LatencyPool): SortedPool {
  pool.sorted ??= pool.latencies.sorted(pool.units.size);
  return pool.sorted;
}

function latencyPool(context: FoldContext, owner: object): LatencyPool {
  const existing = context.shared.get('latency_pool') as LatencyPool | undefined;
  if (existing !== undefined) return existing;
  const pool: LatencyPool = {
    owner,
    units: new Map(),
    latencies: new LatencyColumn(),
    tasks: new Set(),
    trials: 0,
  };
  context.shared.set('latency_pool', pool);
  return pool;
}

function percentileBootstrap(pool: LatencyPool): ReadonlyMap<number, BootstrapResult | null> {
  if (pool.bootstrap !== undefined) return pool.bootstrap;
  const sorted = sortedLatencies(pool);
  const results = bootstrapCountsCi(
    sorted.sizes.length,
    PERCENTILES.map((p) => pooledQuantile(sorted, p)),
    { seed: BOOTSTRAP_SEED, resamples: BOOTSTRAP_RESAMPLES },
  );
  pool.bootstrap = new Map(PERCENTILES.map((p, i) => [p, results[i] ?? null]));
  return pool.bootstrap;
}

function percentileMetric(name: 'agent_latency_p50' | 'agent_latency_p95', p: (typeof PERCENTILES)[number]) {
  return defineBuiltin(name, {
    unit: 'seconds',
    fold(context, shape) {
      const self = {};
      const pool = latencyPool(context, self);
      // A percentile has no CLT formula; resample whole clusters (or tasks) so that epochs of one
      // task stay together, and pool their latencies.
      const clusterOf = clusterLookup(context);
      return {
        add(record) {
          if (pool.owner !== self) return;
          const latency = agentLatencyOf(record);
          if (latency === null || !Number.isFinite(latency)) return;
          const task = record.task_id;
          const unit = clusterOf(task) ?? `task:${task}`;
          let number = pool.units.get(unit);
          if (number === undefined) {
            number = pool.units.size;
            pool.units.set(unit, number);
          }
          pool.latencies.push(latency, number);
          pool.tasks.add(task);
          pool.trials++;
          // A result read before this latency came is not this pool's any more.
          pool.sorted = undefined;
          pool.bootstrap = undefined;
        },
        result(options) {
          if (pool.trials === 0) return emptyResult(shape, { trials: 0, tasks: 0 });
          const value = sortedQuantile(sortedLatencies(pool).values, p);
          const units = pool.units.size;
          const tasks = pool.tasks.size;
          const boot =
            units >= 2 && options?.valueOnly !== true ? percentileBootstrap(pool).get(p) : undefined;
          // The percentile interval is the honest one for a skewed statistic, not ±t·SE.
          return metricResult(
            shape,
            { value, stderr: boot?.stderr ?? null, n: tasks },
            {
              trials: pool.trials,
              tasks,
              quantile: p,
              quantile_method: 'linear interpolation (type 7)',
              stderr_method: 'bootstrap',
              bootstrap: { seed: BOOTSTRAP_SEED, resamples: BOOTSTRAP_RESAMPLES, units },
            },
            { ci: boot ? [Math.max(0, boot.ci[0]), boot.ci[1]] : null, method: 'bootstrap_percentile' },
          );
        },
      };
    },
  });
}

export const agentLatencyP50 = percentileMetric('agent_latency_p50', 0.5);
export const agentLatencyP95 = percentileMetric('agent_latency_p95', 0.95);
