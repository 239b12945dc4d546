import { z } from 'zod';

/** One evaluator's verdict on one trial. */
export const EvaluationResultSchema = z.object({
  evaluator: z.string(),
  /** 0..1 */
  score: z.number().min(0).max(1),
  passed: z.boolean(),
  explanation: z.string(),
  details: z.record(z.string(), z.unknown()).default({}),
  negated: z.boolean().default(false),
  /** Set when the evaluator itself could not judge (bad options at run time, judge unreachable). */
  error: z.string().optional(),
});
export type EvaluationResult = z.infer<typeof EvaluationResultSchema>;

export const CriterionStatusSchema = z.enum(['passed', 'failed', 'error', 'pending']);
export type CriterionStatus = z.infer<typeof CriterionStatusSchema>;

/** A human or judge grade on one rubric dimension. */
export const GradeSchema = z.object({
  dimension: z.string(),
  level: z.number().int().min(1).max(4),
  score: z.number().min(0).max(1),
  rationale: z.string().default(''),
  grader: z.string(),
  grader_kind: z.enum(['human', 'llm']),
  graded_at: z.string(),
  /** Judge model and sha256 of the prompt, for reproducibility. */
  judge_model: z.string().optional(),
  prompt_hash: z.string().optional(),
  samples: z.number().int().positive().optional(),
});
export type Grade = z.infer<typeof GradeSchema>;

/** The outcome of one acceptance criterion in one trial. */
export const CriterionResultSchema = z.object({
  id: z.string(),
  verification: z.enum(['automated', 'rubric', 'human']),
  status: CriterionStatusSchema,
  /** null while pending. */
  score: z.number().min(0).max(1).nullable(),
  explanation: z.string().default(''),
  /** Tail of the command output for command criteria. */
  output_tail: z.string().optional(),
  grades: z.array(GradeSchema).default([]),
  details: z.record(z.string(), z.unknown()).default({}),
});
export type CriterionResult = z.infer<typeof CriterionResultSchema>;
