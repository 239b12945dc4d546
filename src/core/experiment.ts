import { z } from 'zod';
import { HarnessConfigSchema } from './harness-config.ts';
import { canonicalMetricName } from './metric-names.ts';
import { RunRecordSchema } from './run-record.ts';
import { SuiteFormatSchema } from './suite.ts';

export const EXPERIMENT_SCHEMA_VERSION = 1;

export const DirectionSchema = z.enum(['higher_is_better', 'lower_is_better', 'neutral']);
export type Direction = z.infer<typeof DirectionSchema>;

/**
 * An aggregate over trials. `value` is null (shown as "n/a") when there is nothing to aggregate.
 * A renamed metric read from an old store gets its current name (`latency` -> `agent_latency`).
 */
export const MetricResultSchema = z.object({
  name: z.string().transform(canonicalMetricName),
  value: z.number().nullable(),
  formatted_value: z.string(),
  direction: DirectionSchema,
  /** Number of independent units (tasks, when epochs > 1) behind the value. */
  n: z.number().int().nonnegative(),
  stderr: z.number().nonnegative().nullable(),
  ci95: z.tuple([z.number(), z.number()]).nullable(),
  /**
   * How `ci95` was made (docs/statistics.md): `wilson` (a pass rate, one trial per task),
   * `wilson_effective_n` (a rate over epochs or clusters), `t` (mean ± t(n-1)·SE), `cluster_t`
   * (CR1 + t(G-1)), `delta_method_t` (a ratio), `bootstrap_percentile` (a percentile). Absent in
   * experiments stored before it existed (those intervals were z-based).
   */
  ci_method: z.string().optional(),
  description: z.string().default(''),
  unit: z.string().optional(),
  details: z.record(z.string(), z.unknown()).default({}),
});
export type MetricResult = z.infer<typeof MetricResultSchema>;

export const ThresholdViolationSchema = z.object({
  metric: z.string(),
  condition: z.enum(['minimum', 'maximum', 'max_regression', 'missing']),
  threshold: z.number(),
  actual: z.number().nullable(),
  message: z.string(),
});
export type ThresholdViolation = z.infer<typeof ThresholdViolationSchema>;

export const ExperimentStatusSchema = z.enum(['running', 'completed', 'interrupted', 'failed']);
export type ExperimentStatus = z.infer<typeof ExperimentStatusSchema>;

export const RunSettingsSchema = z.object({
  epochs: z.number().int().positive().default(1),
  concurrency: z.number().int().positive().default(4),
  timeout_seconds: z.number().positive().default(60),
  retries: z.number().int().nonnegative().default(0),
  /** Harbor tasks: every agent and verifier timeout was multiplied by this. */
  timeout_multiplier: z.number().positive().optional(),
  seed: z.number().int().optional(),
  filters: z
    .object({
      id: z.string().optional(),
      tag: z.string().optional(),
      difficulty: z.string().optional(),
    })
    .default({}),
});
export type RunSettings = z.infer<typeof RunSettingsSchema>;

export const EnvironmentSchema = z.object({
  harnesseval_version: z.string(),
  node_version: z.string(),
  platform: z.string(),
  git_commit: z.string().optional(),
  hostname_hash: z.string().optional(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

/** One suite run through one harness config: its run records and aggregate metrics. */
export const ExperimentSchema = z.object({
  schema_version: z.literal(EXPERIMENT_SCHEMA_VERSION).default(EXPERIMENT_SCHEMA_VERSION),
  id: z.string(),
  name: z.string().optional(),
  suite: z.object({
    id: z.string(),
    name: z.string().optional(),
    file: z.string().optional(),
    format: SuiteFormatSchema.optional(),
    hash: z.string().optional(),
    /**
     * Task ids in file order, with weight, cluster and domain (the task's, else the suite's): what
     * a complete run contains; `compare` stratifies by domain when the tasks span several.
     */
    tasks: z
      .array(
        z.object({
          id: z.string(),
          weight: z.number().default(1),
          cluster: z.string().optional(),
          domain: z.string().optional(),
        }),
      )
      .default([]),
  }),
  harness: HarnessConfigSchema,
  status: ExperimentStatusSchema,
  created_at: z.string(),
  finished_at: z.string().optional(),
  settings: RunSettingsSchema,
  environment: EnvironmentSchema,
  records: z.array(RunRecordSchema).default([]),
  metrics: z.array(MetricResultSchema).default([]),
  scores: z.record(z.string(), z.number()).default({}),
  outcome: z.enum(['pass', 'fail', 'pending', 'error']).optional(),
  violations: z.array(ThresholdViolationSchema).default([]),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type Experiment = z.infer<typeof ExperimentSchema>;
export type ExperimentDraft = z.input<typeof ExperimentSchema>;
