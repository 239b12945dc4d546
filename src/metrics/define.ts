import type { z } from 'zod';
import type { MetricResult } from '../core/experiment.ts';
import { isEnvironmentError, isInfraError } from '../core/overall-score.ts';
import type { RunRecord } from '../core/run-record.ts';
import { isVerdict, type MetricShape, meanOverTaskMeans } from './aggregate.ts';
import { type BuiltinMetricName, metricCatalog } from './catalog.ts';
import {
  contextOf,
  type FoldContext,
  foldAll,
  type MetricFold,
  type PriorRecords,
  Tally,
  TaskSums,
} from './fold.ts';
import type { MetricUnit } from './format.ts';
import { shownWithPending } from './pending.ts';
import type { MetricDefinition, MetricInput } from './types.ts';

export type BuiltinOptions<N extends BuiltinMetricName> = z.infer<(typeof metricCatalog)[N]['options']>;

export interface BuiltinBehaviour<N extends BuiltinMetricName> {
  /** The result's name for these options (`pass@3`), default the metric's name. */
  readonly label?: (options: BuiltinOptions<N>) => string;
  /** The metric one record at a time; `calculate` folds the input's records through it. */
  readonly fold: (context: FoldContext, shape: MetricShape, options: BuiltinOptions<N>) => MetricFold;
  readonly perTask?: (input: MetricInput, options: BuiltinOptions<N>) => ReadonlyMap<string, number>;
  readonly unit: MetricUnit;
  readonly bounds?: readonly [number, number];
  readonly aggregate?: 'mean' | 'sum';
}

/** A built-in definition whose name, direction, description and options come from the catalog. */
export function defineBuiltin<N extends BuiltinMetricName>(
  name: N,
  behaviour: BuiltinBehaviour<N>,
): MetricDefinition<(typeof metricCatalog)[N]['options']> {
  const entry = metricCatalog[name];
  return {
    name,
    direction: entry.direction,
    description: entry.description,
    options: entry.options,
    create(options) {
      const shape: MetricShape = {
        name: behaviour.label?.(options) ?? name,
        direction: entry.direction,
        description: entry.description,
        unit: behaviour.unit,
        ...(behaviour.bounds ? { bounds: behaviour.bounds } : {}),
      };
      const perTask = behaviour.perTask;
      const fold = (context: FoldContext) => behaviour.fold(context, shape, options);
      return {
        specificationVersion: 'v1',
        name: shape.name,
        direction: entry.direction,
        calculate: (input) => foldAll(fold(contextOf(input)), input.records, input.valueOnly),
        fold,
        ...(perTask ? { perTask: (input: MetricInput) => perTask(input, options) } : {}),
        ...(behaviour.aggregate ? { aggregate: behaviour.aggregate } : {}),
      };
    },
  };
}

/** Counts a metric reports next to its figure, gathered over every record (`errors_by_kind`). */
export interface DetailsFold {
  add(record: RunRecord): void;
  result(): Record<string, unknown>;
}

/**
 * The per-trial values of a mean metric, one record at a time. With `excludePending` (metrics of
 * the harness's results: rates, scores) trials without a decided outcome are left out and
 * counted: pending ones, and environment and infrastructure errors (a check could not run, which
 * says nothing about the harness). Records without a value (`trialValue` null) are `skipped`.
 */
export class TrialValues {
  readonly values = new TaskSums();
  readonly pending = new Tally();
  environmentErrors = 0;
  infraErrors = 0;
  /** Records that were asked for a value (not excluded). */
  considered = 0;
  binary = true;

  constructor(
    private readonly trialValue: (record: RunRecord) => number | null,
    private readonly excludePending: boolean,
    prior?: PriorRecords,
  ) {
    if (prior === undefined) return;
    // None of the earlier records had a value: they count as left out, or as skipped.
    if (!excludePending) {
      this.considered = prior.records;
      return;
    }
    for (const [task, n] of prior.pending.counts) this.pending.add(task, n);
    this.environmentErrors = prior.environmentErrors;
    this.infraErrors = prior.infraErrors;
    this.considered = prior.records - prior.pending.total - prior.environmentErrors - prior.infraErrors;
  }

  add(record: RunRecord): void {
    if (this.excludePending) {
      if (record.outcome === 'pending') {
        this.pending.add(record.task_id);
        return;
      }
      if (isEnvironmentError(record)) {
        this.environmentErrors++;
        return;
      }
      if (isInfraError(record)) {
        this.infraErrors++;
        return;
      }
    }
    this.considered++;
    const value = this.trialValue(record);
    if (value === null || !Number.isFinite(value)) return;
    this.values.add(record.task_id, value);
    if (!isVerdict(value)) this.binary = false;
  }

  get skipped(): number {
    return this.considered - this.values.trials;
  }
}

/**
 * A built-in that is the mean of a per-trial quantity: the value, its error bar over per-task
 * means and the per-task map all come from `trialValue`. `skippedAs` names the detail that counts
 * records without a value (e.g. `unknown_cost`).
 */
export function meanMetric<N extends BuiltinMetricName>(
  name: N,
  spec: {
    readonly unit: MetricUnit;
    readonly bounds?: readonly [number, number];
    readonly excludePending: boolean;
    readonly trialValue: (record: RunRecord, options: BuiltinOptions<N>) => number | null;
    readonly skippedAs?: string;
    readonly label?: (options: BuiltinOptions<N>) => string;
    /** More details from the records (counts a note next to the figure reads). */
    readonly details?: () => DetailsFold;
  },
): MetricDefinition<(typeof metricCatalog)[N]['options']> {
  const values = (options: BuiltinOptions<N>, prior?: PriorRecords) =>
    new TrialValues((record) => spec.trialValue(record, options), spec.excludePending, prior);
  return defineBuiltin(name, {
    unit: spec.unit,
    ...(spec.bounds ? { bounds: spec.bounds } : {}),
    ...(spec.label ? { label: spec.label } : {}),
    fold(context, shape, options) {
      const trials = values(options, context.prior);
      const extra = spec.details?.();
      return {
        add(record) {
          extra?.add(record);
          trials.add(record);
        },
        result(): MetricResult {
          const details: Record<string, unknown> = { ...extra?.result() };
          if (spec.excludePending) {
            details.environment_errors = trials.environmentErrors;
            details.infra_errors = trials.infraErrors;
          }
          if (spec.skippedAs) details[spec.skippedAs] = trials.skipped;
          const summary = {
            means: trials.values.means(),
            trials: trials.values.trials,
            binary: trials.values.trials > 0 && trials.binary,
          };
          const result = meanOverTaskMeans(context, summary, shape, details);
          return spec.excludePending
            ? shownWithPending(result, shape, trials.values, trials.pending)
            : result;
        },
      };
    },
    perTask(input, options) {
      const trials = values(options);
      for (const record of input.records) trials.add(record);
      return trials.values.means();
    },
  });
}
