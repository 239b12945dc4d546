import { z } from 'zod';
import { AgentOutputSchema, ErrorKindSchema, emptyTrace, TraceSchema } from './agent-output.ts';
import { CriterionResultSchema, EvaluationResultSchema } from './evaluation.ts';
import { TaskInputSchema } from './task.ts';

export const RUN_RECORD_SCHEMA_VERSION = 1;

/** The seed-004 process metrics of one run, under the seed's exact names. */
export const ProcessMetricsSchema = z.object({
  prompts_total: z.number().int().nonnegative().default(0),
  prompts_planned: z.number().int().nonnegative().default(0),
  prompts_unplanned: z.number().int().nonnegative().default(0),
  hitl_total: z.number().int().nonnegative().default(0),
  hitl_planned: z.number().int().nonnegative().default(0),
  hitl_unplanned: z.number().int().nonnegative().default(0),
  /** null when no review happened, so there was nothing to approve. */
  first_pass_approval: z.boolean().nullable().default(null),
  circuit_breakers_fired: z.number().int().nonnegative().default(0),
  circuit_breaker_types: z.array(z.string()).default([]),
  acceptance_criteria_passed: z.number().int().nonnegative().default(0),
  acceptance_criteria_total: z.number().int().nonnegative().default(0),
  tokens_in: z.number().nonnegative().default(0),
  tokens_out: z.number().nonnegative().default(0),
  human_minutes: z.number().nonnegative().default(0),
  agent_calls: z.number().int().nonnegative().default(0),
});
export type ProcessMetrics = z.infer<typeof ProcessMetricsSchema>;

export const RoleBreakdownSchema = z.object({
  calls: z.number().int().nonnegative(),
  tokens_in: z.number().nonnegative(),
  tokens_out: z.number().nonnegative(),
  cost_usd: z.number().nonnegative(),
});
export type RoleBreakdown = z.infer<typeof RoleBreakdownSchema>;

/**
 * What the harness changed in its workspace, against the task's starter codebase: a unified
 * diff of text files (binary ones named only), cut at a size limit, secrets redacted. Kept with
 * the record, so a grader and the judge see the change without `--keep-workspaces`.
 */
export const WorkspaceDiffSchema = z.object({
  files: z.array(z.object({ path: z.string(), status: z.enum(['added', 'changed', 'removed']) })),
  diff: z.string(),
  /** Bytes of diff left out at the size limit (0: complete). */
  omitted_bytes: z.number().int().nonnegative().default(0),
});
export type WorkspaceDiff = z.infer<typeof WorkspaceDiffSchema>;

export const OutcomeSchema = z.enum(['pass', 'fail', 'error', 'pending']);
export type Outcome = z.infer<typeof OutcomeSchema>;

export const RunHarnessSchema = z.object({
  name: z.string(),
  version: z.string(),
  agents: z.array(z.string()).default([]),
  model: z.string().optional(),
  trust_tier: z.string().optional(),
});

/**
 * A run record: one task, one attempt (task x epoch) — the seed-004 record, plus the output,
 * trace and per-criterion results that produced its numbers.
 */
export const RunRecordSchema = z.object({
  schema_version: z.literal(RUN_RECORD_SCHEMA_VERSION).default(RUN_RECORD_SCHEMA_VERSION),
  run_id: z.string(),
  experiment_id: z.string().optional(),
  task_id: z.string(),
  epoch: z.number().int().nonnegative().default(0),
  /** How many attempts the adapter needed (1 + retries). */
  attempts: z.number().int().positive().default(1),
  harness_config: RunHarnessSchema,
  timestamp: z.string(),
  duration_seconds: z.number().nonnegative(),
  cost_usd: z.number().nonnegative().nullable().default(null),
  outcome: OutcomeSchema,
  error: z.string().optional(),
  /** What the harness was given and the value it was checked against, to read beside the output. */
  input: TaskInputSchema.optional(),
  expected: z.unknown().optional(),
  /**
   * Why the trial errored: the adapter's kind (`timeout`, `transient`, `crash`...), or
   * `environment` when a check could not run where it ran. Absent in records stored before it
   * existed: `output.error_kind` says the same for harness errors there.
   */
  error_kind: ErrorKindSchema.optional(),
  output: AgentOutputSchema,
  trace: TraceSchema.default(emptyTrace),
  evaluations: z.array(EvaluationResultSchema).default([]),
  criteria: z.array(CriterionResultSchema).default([]),
  metrics: ProcessMetricsSchema.default(ProcessMetricsSchema.parse({})),
  by_role: z.record(z.string(), RoleBreakdownSchema).default({}),
  /** functional_completeness, one entry per rubric dimension, and overall (all 0..1). */
  scores: z.record(z.string(), z.number().min(0).max(1)).default({}),
  /** Path of the kept workspace (only with --keep-workspaces). */
  workspace: z.string().optional(),
  /** The harness's changes to the starter codebase (tasks with a codebase; absent in older records). */
  workspace_diff: WorkspaceDiffSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;
export type RunRecordDraft = z.input<typeof RunRecordSchema>;
