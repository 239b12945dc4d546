import { z } from 'zod';
import { EvaluatorRefSchema } from './plugin-ref.ts';

export const DifficultySchema = z.enum(['easy', 'medium', 'hard']);
export type Difficulty = z.infer<typeof DifficultySchema>;

export const SourceTypeSchema = z.enum(['hand_written', 'synthetic', 'adversarial']);
export type SourceType = z.infer<typeof SourceTypeSchema>;

export const ProvenanceSchema = z.object({
  author: z.string(),
  source_type: SourceTypeSchema,
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

export const VerificationSchema = z.enum(['automated', 'rubric', 'human']);
export type Verification = z.infer<typeof VerificationSchema>;

/**
 * An argv array run without a shell. A string is accepted in files and split on whitespace
 * (quotes group words); shell syntax such as pipes or `&&` is not interpreted.
 */
export const CommandSchema = z.array(z.string().min(1)).min(1);
export type Command = z.infer<typeof CommandSchema>;

/** One acceptance criterion of a task and how it is checked. */
export const CriterionSchema = z.object({
  id: z.string().min(1),
  description: z.string().default(''),
  /** functional | quality | performance | security | ... (free, the seed lists examples). */
  type: z.string().default('functional'),
  verification: VerificationSchema.default('automated'),
  /** Automated: an evaluator that checks the trial's output. */
  evaluator: EvaluatorRefSchema.optional(),
  /** Automated: a command run in the trial's workspace; exit 0 passes. */
  command: CommandSchema.optional(),
  /** Seconds before the command is killed. */
  timeout_seconds: z.number().positive().optional(),
  /** Rubric: the rubric dimension(s) this criterion is graded on; defaults to every dimension. */
  rubric_dimensions: z.array(z.string()).optional(),
  weight: z.number().nonnegative().default(1),
});
export type Criterion = z.infer<typeof CriterionSchema>;

export const TaskInputSchema = z.union([z.string(), z.record(z.string(), z.unknown())]);
export type TaskInput = z.infer<typeof TaskInputSchema>;

/**
 * What a task needs of the sandbox it runs in (Harbor's `[environment]`): where its workspace is
 * seen, an image or a build folder when it needs one, and folders mounted writable for its logs.
 */
export const TaskEnvironmentSchema = z.object({
  /** The workspace's path inside the sandbox; the host path when absent. */
  workdir: z.string().startsWith('/').optional(),
  /** A container image the task needs (then only docker/podman can run it). */
  image: z.string().min(1).optional(),
  /** A folder with a Dockerfile to build the task's image from. */
  build_context: z.string().optional(),
  /** Empty folders created per trial and mounted writable at these paths (`/logs/agent`). */
  log_dirs: z.array(z.string().startsWith('/')).default([]),
  memory_mb: z.number().int().positive().optional(),
});
export type TaskEnvironment = z.infer<typeof TaskEnvironmentSchema>;

/** One step of a multi-step task: its own input and checks, run in the same workspace in order. */
export const TaskStepSchema = z.object({
  id: z.string().min(1),
  input: TaskInputSchema,
  /** The step's checks, run after its agent turn (the task's own evaluators are not rerun per step). */
  evaluators: z.array(EvaluatorRefSchema).default([]),
  timeout_seconds: z.number().positive().optional(),
  /**
   * Stop the remaining steps when this step's scores fall below: a number gates its mean evaluator
   * score, a record gates each named score its evaluators report (a missing one counts as below).
   */
  min_score: z.union([z.number(), z.record(z.string(), z.number())]).optional(),
  /** Files (a folder) copied into the workspace before the step, e.g. Harbor's steps/<name>/workdir. */
  files: z.record(z.string(), z.string()).default({}),
  /** A command run in the workspace before the agent; a non-zero exit stops the trial. */
  setup: CommandSchema.optional(),
});
export type TaskStep = z.infer<typeof TaskStepSchema>;

/** Where a task came from, for located messages and provenance in reports. */
export const SourceLocationSchema = z.object({
  file: z.string(),
  line: z.number().int().nonnegative().default(0),
});
export type SourceLocation = z.infer<typeof SourceLocationSchema>;

/**
 * A task (test case): what the harness is asked to do and how the result is judged.
 * Every input format (v0 JSONL, benchmark YAML, task spec YAML) converts to this.
 */
export const TaskSchema = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
  domain: z.string().optional(),
  complexity: z.string().optional(),
  input: TaskInputSchema,
  expected: z.unknown().optional(),
  criteria: z.array(CriterionSchema).default([]),
  /** Evaluators applied to every trial of this task, in addition to the suite's. */
  evaluators: z.array(EvaluatorRefSchema).default([]),
  tags: z.array(z.string()).default([]),
  difficulty: DifficultySchema.optional(),
  weight: z.number().nonnegative().default(1),
  timeout_seconds: z.number().positive().optional(),
  /** Tasks sharing a cluster are correlated (same passage, same codebase); used for clustered errors. */
  cluster: z.string().optional(),
  provenance: ProvenanceSchema.optional(),
  /** Resolved file inputs of a task spec, e.g. `{ codebase: '/abs/path', requirements: '/abs/file.md' }`. */
  files: z.record(z.string(), z.string()).default({}),
  /**
   * Globs, relative to the codebase (`*` crosses folders), of files the harness may not change,
   * such as `test/acceptance/*`: before the criteria run, each such file of the codebase that the
   * workspace lacks or has changed is put back, and the run record lists it.
   */
  protected_files: z.array(z.string().min(1)).optional(),
  estimated_complexity_hours: z.number().nonnegative().optional(),
  /** The rubric file (resolved path) or inline rubric id that rubric criteria use. */
  rubric: z.string().optional(),
  /** What the task needs of its sandbox; see TaskEnvironmentSchema. */
  environment: TaskEnvironmentSchema.optional(),
  /** A multi-step task: the steps run in order in one workspace, each with its own checks. */
  steps: z.array(TaskStepSchema).optional(),
  /** How a multi-step task's score comes from its steps': the mean of each score, or the last step's. */
  step_scoring: z.enum(['mean', 'final']).optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
  source: SourceLocationSchema.optional(),
});
export type Task = z.infer<typeof TaskSchema>;
export type TaskDraft = z.input<typeof TaskSchema>;
