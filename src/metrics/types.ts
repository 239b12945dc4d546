import type { z } from 'zod';
import type { Direction, MetricResult } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { FoldContext, MetricFold } from './fold.ts';

export interface MetricTask {
  readonly id: string;
  readonly weight: number;
  readonly cluster?: string | undefined;
}

export interface MetricInput {
  /** Every finished trial (task x epoch). */
  readonly records: readonly RunRecord[];
  /** The tasks of the suite (weights, clusters), in file order. */
  readonly tasks: readonly MetricTask[];
  readonly epochs: number;
  /**
   * The caller reads only `value` (a comparison over the tasks both sides ran): a metric may leave
   * out an interval that is costly to compute (the latency percentiles' bootstrap) and give
   * `stderr` and `ci` as null. The value must be the one a full calculation gives.
   */
  readonly valueOnly?: boolean;
}

/** An aggregate over trials. Must handle empty input ("n/a", never NaN). */
export interface MetricV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  readonly direction: Direction;
  calculate(input: MetricInput): MetricResult;
  /**
   * The same calculation one record at a time (`MetricFold`), so a run need not keep its
   * records: every built-in has one. A run that names a metric without one keeps cut records.
   */
  fold?(context: FoldContext): MetricFold;
  /**
   * The metric's value per task (its mean over epochs), for paired comparisons of two
   * experiments. Absent for metrics that are not averages of per-task values (percentiles, ratios).
   */
  perTask?(input: MetricInput): ReadonlyMap<string, number>;
  /**
   * How the value follows from the per-task values: their `mean` (the default) or their `sum`
   * (a total such as `cost`). A comparison states a total's difference as a total too.
   */
  readonly aggregate?: 'mean' | 'sum';
}

export interface MetricDefinition<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly direction: Direction;
  readonly description: string;
  readonly options: S;
  create(options: z.infer<S>): MetricV1;
}
