import { z } from 'zod';
import { DEFAULT_SCORING, defaultScoring } from './default-scoring.ts';
import { HarnessConfigSchema } from './harness-config.ts';
import { JudgeSettingSchema } from './judge.ts';
import { EvaluatorRefSchema, MetricRefSchema } from './plugin-ref.ts';
import { RubricSchema } from './rubric.ts';
import { SandboxConfigSchema } from './sandbox-config.ts';
import { TaskSchema } from './task.ts';

/** A regression gate on one metric. `max_regression` is relative (0.05 = 5% worse than baseline). */
export const ThresholdSchema = z
  .object({
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    max_regression: z.number().nonnegative().optional(),
    require_significant: z.boolean().default(false),
  })
  .refine((t) => t.minimum === undefined || t.maximum === undefined || t.minimum <= t.maximum, {
    message: 'minimum must not be greater than maximum',
  });
export type Threshold = z.infer<typeof ThresholdSchema>;

/** How a trial's criteria combine into its overall score, and when the suite passes. */
export const ScoringSchema = z.object({
  method: z.literal('weighted_average').default(DEFAULT_SCORING.method),
  pass_threshold: z.number().min(0).max(1).default(DEFAULT_SCORING.pass_threshold),
  /** Share of the overall score from functional (automated) criteria vs rubric dimensions. */
  weights: z
    .object({
      functional: z.number().nonnegative().default(DEFAULT_SCORING.weights.functional),
      rubric: z.number().nonnegative().default(DEFAULT_SCORING.weights.rubric),
    })
    .default({ ...DEFAULT_SCORING.weights }),
});
export type Scoring = z.infer<typeof ScoringSchema>;
export { DEFAULT_SCORING, defaultScoring };

export const SuiteFormatSchema = z.enum([
  'eval-case-v0',
  'benchmark-v1',
  'suite-v1',
  'task-spec-v1',
  'harbor-v1',
]);
export type SuiteFormat = z.infer<typeof SuiteFormatSchema>;

/**
 * A suite: the tasks to run, how they are judged and aggregated. Every input format converts to
 * a Suite (a v0 dataset or a single task spec becomes a suite of its tasks).
 */
export const SuiteSchema = z.object({
  schema_version: z.literal(1).default(1),
  id: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
  domain: z.string().optional(),
  tasks: z.array(TaskSchema),
  evaluators: z.array(EvaluatorRefSchema).default([]),
  metrics: z.array(MetricRefSchema).default([]),
  thresholds: z.record(z.string(), ThresholdSchema).default({}),
  scoring: ScoringSchema.default(defaultScoring),
  rubrics: z.array(RubricSchema).default([]),
  /** The model that grades rubric criteria (`--judge` overrides it). */
  judge: JudgeSettingSchema.optional(),
  /** The harness named in the file itself (a benchmark's `agent:`); `--harness` overrides it. */
  harness: HarnessConfigSchema.optional(),
  /** The sandbox the suite's tasks run in unless the harness config or `--sandbox` names another. */
  sandbox: SandboxConfigSchema.optional(),
  source: z
    .object({
      format: SuiteFormatSchema,
      file: z.string(),
      /** sha256 of the file bytes (and of referenced task files), to tell suite versions apart. */
      hash: z.string(),
    })
    .optional(),
});
export type Suite = z.infer<typeof SuiteSchema>;
export type SuiteDraft = z.input<typeof SuiteSchema>;
