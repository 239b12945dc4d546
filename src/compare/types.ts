import type { Direction } from '../core/experiment.ts';
import type { McNemarResult } from '../stats/mcnemar.ts';
import type { PairedComparison } from '../stats/significance.ts';

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

/** B's paired test against A on one metric; McNemar's exact test too for pass/fail metrics. */
export interface PairedMetric extends PairedComparison {
  readonly mcnemar: McNemarResult | null;
}

/**
 * One candidate against the baseline on one metric (seed 000's MetricDelta). `percent` is the
 * change relative to |A| and is null when A is 0 or either value is missing: `percent_label`
 * then says "new" (A = 0, B ≠ 0) or "n/a" — never Infinity or NaN.
 */
export interface MetricDelta {
  readonly experiment_id: string;
  readonly baseline_value: number | null;
  readonly value: number | null;
  /** B - A in the metric's unit. */
  readonly delta: number | null;
  readonly percent: number | null;
  readonly percent_label: string;
  readonly is_improvement: boolean;
  readonly is_regression: boolean;
  /** Null when the metric has no per-task values (percentiles, ratios) or no task is shared. */
  readonly paired: PairedMetric | null;
}

export interface MetricComparison {
  readonly name: string;
  readonly direction: Direction;
  readonly unit?: string | undefined;
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
}

/** What one candidate changed against A, task by task. */
export interface PairComparison {
  readonly baseline_id: string;
  readonly experiment_id: string;
  readonly shared_tasks: number;
  readonly only_in_baseline: readonly string[];
  readonly only_in_candidate: readonly string[];
  /** Passed in A, failed in the candidate. */
  readonly regressions: readonly FlippedTask[];
  /** Failed in A, passed in the candidate. */
  readonly improvements: readonly FlippedTask[];
}

export interface Comparison {
  readonly experiments: readonly ComparedExperiment[];
  readonly alpha: number;
  readonly metrics: readonly MetricComparison[];
  readonly pairs: readonly PairComparison[];
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
  /** The paired test's p-value, when there is one. */
  readonly p_value?: number | null | undefined;
  readonly message: string;
}
