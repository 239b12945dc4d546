import type { z } from 'zod';
import type { MetricResult } from '../core/experiment.ts';
import { isEnvironmentError, isInfraError } from '../core/overall-score.ts';
import type { RunRecord } from '../core/run-record.ts';
import { taskMeans } from '../stats/clustered.ts';
import { type MetricShape, meanOverTasks, type TrialValue } from './aggregate.ts';
import { type BuiltinMetricName, metricCatalog } from './catalog.ts';
import type { MetricUnit } from './format.ts';
import { shownWithPending } from './pending.ts';
import type { MetricDefinition, MetricInput } from './types.ts';

export type BuiltinOptions<N extends BuiltinMetricName> = z.infer<(typeof metricCatalog)[N]['options']>;

export interface BuiltinBehaviour<N extends BuiltinMetricName> {
  /** The result's name for these options (`pass@3`), default the metric's name. */
  readonly label?: (options: BuiltinOptions<N>) => string;
  readonly calculate: (input: MetricInput, shape: MetricShape, options: BuiltinOptions<N>) => MetricResult;
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
      return {
        specificationVersion: 'v1',
        name: shape.name,
        direction: entry.direction,
        calculate: (input) => behaviour.calculate(input, shape, options),
        ...(perTask ? { perTask: (input: MetricInput) => perTask(input, options) } : {}),
        ...(behaviour.aggregate ? { aggregate: behaviour.aggregate } : {}),
      };
    },
  };
}

/** Per-trial values of the records that have one; the rest are counted by the caller. */
export interface TrialSelection {
  readonly trials: TrialValue[];
  /** Records skipped because `trialValue` returned null. */
  readonly skipped: number;
  /** Pending records excluded (only when `excludePending`). */
  readonly pending: number;
  /** The task of each pending record excluded. */
  readonly pendingTasks: string[];
  /** Environment errors excluded (only when `excludePending`: they have no outcome either). */
  readonly environmentErrors: number;
  /** Infrastructure errors excluded (only when `excludePending`), counted apart from environment ones. */
  readonly infraErrors: number;
}

/**
 * The per-trial values. With `excludePending` (metrics of the harness's results: rates, scores)
 * trials without a decided outcome are left out and counted: pending ones, and environment
 * errors (a check could not run, which says nothing about the harness).
 */
export function selectTrials(
  records: readonly RunRecord[],
  trialValue: (record: RunRecord) => number | null,
  options: { readonly excludePending: boolean },
): TrialSelection {
  const trials: TrialValue[] = [];
  const pendingTasks: string[] = [];
  let skipped = 0;
  let environmentErrors = 0;
  let infraErrors = 0;
  for (const record of records) {
    if (options.excludePending && record.outcome === 'pending') {
      pendingTasks.push(record.task_id);
      continue;
    }
    if (options.excludePending && isEnvironmentError(record)) {
      environmentErrors++;
      continue;
    }
    if (options.excludePending && isInfraError(record)) {
      infraErrors++;
      continue;
    }
    const value = trialValue(record);
    if (value === null || !Number.isFinite(value)) skipped++;
    else trials.push({ task: record.task_id, value });
  }
  return { trials, skipped, pending: pendingTasks.length, pendingTasks, environmentErrors, infraErrors };
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
    readonly details?: (records: readonly RunRecord[]) => Record<string, unknown>;
  },
): MetricDefinition<(typeof metricCatalog)[N]['options']> {
  const select = (input: MetricInput, options: BuiltinOptions<N>) =>
    selectTrials(input.records, (record) => spec.trialValue(record, options), spec);
  return defineBuiltin(name, {
    unit: spec.unit,
    ...(spec.bounds ? { bounds: spec.bounds } : {}),
    ...(spec.label ? { label: spec.label } : {}),
    calculate(input, shape, options) {
      const selection = select(input, options);
      const details: Record<string, unknown> = { ...spec.details?.(input.records) };
      if (spec.excludePending) {
        details.environment_errors = selection.environmentErrors;
        details.infra_errors = selection.infraErrors;
      }
      if (spec.skippedAs) details[spec.skippedAs] = selection.skipped;
      const result = meanOverTasks(input, selection.trials, shape, details);
      return spec.excludePending
        ? shownWithPending(result, input, shape, selection.trials, selection.pendingTasks)
        : result;
    },
    perTask: (input, options) => taskMeans(select(input, options).trials),
  });
}
