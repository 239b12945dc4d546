import type { Direction } from '../core/experiment.ts';
import type { FlakyTask } from '../metrics/flaky.ts';
import type { AdjustMethod } from '../stats/multiplicity.ts';
import type { PairedComparison } from '../stats/significance.ts';
import type { DomainComparison } from './by-domain.ts';

/** One experiment as a column of a comparison. */
export interface ComparedExperiment {
  readonly id: string;
  /** The column heading: the harness version when the experiments share a harness name. */
  readonly label: string;
  readonly harness: { readonly name: string; readonly version: string };
  readonly suite: { readonly id: string; readonly hash?: string | undefined };
  readonly created_at: string;
  readonly status: string;
  readonly tasks: number;
  readonly epochs: number;
}

/** A metric's value in one experiment (null: not computed, or nothing to aggregate). */
export interface MetricValue {
  readonly value: number | null;
  readonly formatted_value: string;
  readonly n: number;
  readonly ci95: [number, number] | null;
}

/**
 * B's paired test against A on one metric, over the tasks both ran (docs/statistics.md): exact
 * McNemar for one pass/fail verdict per task, else the paired t test (CR1 + t(G-1) with
 * clusters, the exact sign test when the differences do not vary). `p_value` is the test's own;
 * `p_adjusted` is adjusted over the comparison's metrics (`adjust`), and `significant` uses it.
 */
export interface PairedMetric extends PairedComparison {
  /** p adjusted over this candidate's tests of all metrics (Holm by default); null without a test. */
  readonly p_adjusted: number | null;
  readonly adjust: AdjustMethod;
  /** p_adjusted < alpha. */
  readonly significant: boolean;
  /** p_value < alpha: this metric's own test, as a gate on this one metric uses it. */
  readonly significant_unadjusted: boolean;
  /** Metrics whose test is this same test (same tasks, same p): counted once in the family. */
  readonly same_test_as?: string | undefined;
  /** For a total (`aggregate: 'sum'`): the statistics above are totals over the shared tasks. */
  readonly scale?: 'total' | undefined;
}

/** The verdict of an always-valid confidence sequence over the per-task differences (`--sequential`). */
export interface SequentialResult {
  readonly method: 'betting_confidence_sequence';
  readonly alpha: number;
  /** ± margin: a difference smaller than this does not matter (the "equivalent" verdict). */
  readonly margin: number;
  /** `different`: the sequence excluded 0; `equivalent`: it fell inside ±margin; else `undecided`. */
  readonly decision: 'different' | 'equivalent' | 'undecided';
  /** Tasks seen when it was decided (null while undecided). */
  readonly decided_after: number | null;
  readonly tasks: number;
  /** The interval after the last task (it is valid at every look). */
  readonly interval: [number, number];
}

/**
 * One candidate against the baseline on one metric (seed 000's MetricDelta). `percent` is the
 * change relative to |A| and is null when A is 0 or either value is missing: `percent_label`
 * then says "new" (A = 0, B ≠ 0) or "n/a" — never Infinity or NaN.
 */
export interface MetricDelta {
  readonly experiment_id: string;
  /** A's value over the tasks both ran (all of A's tasks when none is shared). */
  readonly baseline_value: number | null;
  /** B's value over the tasks both ran. */
  readonly value: number | null;
  /** B - A in the metric's unit, over the same tasks: the paired mean difference when there is one. */
  readonly delta: number | null;
  readonly percent: number | null;
  readonly percent_label: string;
  readonly is_improvement: boolean;
  readonly is_regression: boolean;
  /** Null when the metric has no per-task values (percentiles, ratios) or no task is shared. */
  readonly paired: PairedMetric | null;
  /** Which tasks the values and the change above are over. */
  readonly basis: 'shared_tasks' | 'all_tasks';
  /** With `--sequential`, for bounded metrics (rates and scores). */
  readonly sequential?: SequentialResult | undefined;
}

export interface MetricComparison {
  readonly name: string;
  readonly direction: Direction;
  readonly unit?: string | undefined;
  /** `sum` for a total (cost): shown in the summary, its differences in totals too. */
  readonly aggregate: 'mean' | 'sum';
  /** One per experiment, in the order given (A first). */
  readonly values: readonly MetricValue[];
  /** One per candidate (B, C, ...) against A. */
  readonly deltas: readonly MetricDelta[];
}

/** A task whose pass/fail verdict differs between A and a candidate. */
export interface FlippedTask {
  readonly task_id: string;
  /** Mean pass rate over epochs in A and in the candidate. */
  readonly baseline_pass_rate: number;
  readonly pass_rate: number;
  /** Why the failing side failed: its first error, failed evaluation or failed criterion. */
  readonly explanation: string;
  /** The task's verdict flips between attempts of the same version (see `PairComparison.flaky`). */
  readonly flaky: boolean;
}

/** What one candidate changed against A, task by task. */
export interface PairComparison {
  readonly baseline_id: string;
  readonly experiment_id: string;
  /** Tasks both ran (after `excluded`): every paired statistic, delta and gate is over these. */
  readonly shared_tasks: number;
  /** Tasks either ran: the M of "paired over N of M tasks". */
  readonly total_tasks: number;
  readonly only_in_baseline: readonly string[];
  readonly only_in_candidate: readonly string[];
  /** Tasks whose verdict flips between attempts of A's or of B's version. */
  readonly flaky: readonly FlakyTask[];
  /** Shared tasks left out of this comparison (`excludeFlaky`). */
  readonly excluded: readonly string[];
  /** Each test's shared-task count is below `SMALL_SAMPLE_TASKS`: exact and t methods, wide intervals. */
  readonly small_sample: boolean;
  /** Passed in A, failed in the candidate. */
  readonly regressions: readonly FlippedTask[];
  /** Failed in A, passed in the candidate. */
  readonly improvements: readonly FlippedTask[];
}

export interface Comparison {
  readonly experiments: readonly ComparedExperiment[];
  readonly alpha: number;
  /** How p-values are adjusted over the metrics of each candidate. */
  readonly adjust: AdjustMethod;
  readonly metrics: readonly MetricComparison[];
  readonly pairs: readonly PairComparison[];
  /**
   * Per candidate whose shared tasks span several domains: a paired test per domain and a pooled
   * stratified test per metric (docs/statistics.md, "Across domains"). Absent for one domain.
   */
  readonly by_domain?: readonly DomainComparison[];
  /** Different suite versions, disjoint task sets, unfinished experiments. */
  readonly warnings: readonly string[];
  /** Broken regression rules, when thresholds were given. */
  readonly violations: readonly RegressionViolation[];
}

/** A broken regression rule (seed 000's RegressionViolation), for one candidate. */
export interface RegressionViolation {
  readonly metric: string;
  readonly experiment_id: string;
  readonly condition: 'minimum' | 'maximum' | 'max_regression' | 'missing';
  readonly threshold: number;
  /** The candidate's value (null when missing). */
  readonly actual: number | null;
  readonly baseline: number | null;
  /** For max_regression: how much worse, as a fraction of the baseline (0.08 = 8% worse). */
  readonly worsening?: number | undefined;
  /** The metric's own paired test p-value (not adjusted for the other metrics), when there is one. */
  readonly p_value?: number | null | undefined;
  readonly message: string;
}
