import { z } from 'zod';

/**
 * ATIF, the Agent Trajectory Interchange Format, v1.7, written from Harbor's RFC 0001
 * (harbor-framework/harbor docs/rfcs/0001-trajectory-format.md: root, AgentSchema, StepObject,
 * ToolCallSchema, ObservationSchema, MetricsSchema, FinalMetricsSchema; v1.5 tool_definitions,
 * v1.6 multimodal content parts, v1.7 embedded subagent_trajectories and trajectory_id).
 * Harbor ships no JSON Schema file, so this is the schema exports are checked against. Reading is
 * lenient about keys the RFC does not name (newer producers add some); `AtifStrictSchema` is not.
 */
const extra = z.record(z.string(), z.unknown()).optional();

const ContentPartSchema = z.looseObject({ type: z.string() });
const ContentSchema = z.union([z.string(), z.array(ContentPartSchema), z.null()]);

export const AtifToolCallSchema = z.object({
  tool_call_id: z.string(),
  function_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  extra,
});

const SubagentRefSchema = z.object({
  session_id: z.string().optional(),
  trajectory_id: z.string().optional(),
  trajectory_path: z.string().optional(),
  extra,
});

const ObservationResultSchema = z.object({
  source_call_id: z.string().nullable().optional(),
  content: ContentSchema.optional(),
  subagent_trajectory_ref: z.array(SubagentRefSchema).nullable().optional(),
  extra,
});

export const AtifMetricsSchema = z.object({
  /** All input tokens, cached ones included (RFC 0001, "Token Accounting"). */
  prompt_tokens: z.number().int().nonnegative().optional(),
  completion_tokens: z.number().int().nonnegative().optional(),
  cached_tokens: z.number().int().nonnegative().optional(),
  cost_usd: z.number().nonnegative().optional(),
  prompt_token_ids: z.array(z.number().int()).optional(),
  completion_token_ids: z.array(z.number().int()).optional(),
  logprobs: z.array(z.number()).optional(),
  extra,
});

export const AtifStepSchema = z.object({
  step_id: z.number().int().positive(),
  timestamp: z.string().optional(),
  source: z.enum(['system', 'user', 'agent']),
  model_name: z.string().optional(),
  reasoning_effort: z.union([z.string(), z.number()]).optional(),
  message: ContentSchema,
  reasoning_content: z.string().optional(),
  tool_calls: z.array(AtifToolCallSchema).optional(),
  observation: z.object({ results: z.array(ObservationResultSchema) }).optional(),
  metrics: AtifMetricsSchema.optional(),
  extra,
});
export type AtifStep = z.infer<typeof AtifStepSchema>;

const FinalMetricsSchema = z.object({
  total_prompt_tokens: z.number().int().nonnegative().optional(),
  total_completion_tokens: z.number().int().nonnegative().optional(),
  total_cached_tokens: z.number().int().nonnegative().optional(),
  total_cost_usd: z.number().nonnegative().optional(),
  total_steps: z.number().int().nonnegative().optional(),
  extra,
});

const AgentSchema = z.object({
  name: z.string(),
  version: z.string(),
  model_name: z.string().optional(),
  tool_definitions: z.array(z.record(z.string(), z.unknown())).optional(),
  extra,
});

const trajectoryShape = {
  schema_version: z.string().regex(/^ATIF-v1\.\d+$/, 'ATIF-v1.x'),
  session_id: z.string().optional(),
  trajectory_id: z.string().optional(),
  agent: AgentSchema,
  steps: z.array(AtifStepSchema),
  notes: z.string().optional(),
  final_metrics: FinalMetricsSchema.optional(),
  extra,
};

export interface AtifTrajectory extends z.infer<z.ZodObject<typeof trajectoryShape>> {
  subagent_trajectories?: AtifTrajectory[] | undefined;
}

export const AtifTrajectorySchema: z.ZodType<AtifTrajectory> = z.object({
  ...trajectoryShape,
  get subagent_trajectories() {
    return z.array(AtifTrajectorySchema).optional();
  },
});

/** Every object closed, as Harbor's pydantic models are (`extra = "forbid"`). */
export function atifStrictIssues(document: unknown): z.core.$ZodIssue[] {
  const result = z
    .object({ ...trajectoryShape, subagent_trajectories: z.array(z.unknown()).optional() })
    .strict()
    .safeParse(document);
  if (!result.success) return result.error.issues;
  const steps = (document as { steps: unknown[] }).steps;
  const stepIssues = steps.flatMap((step, i) => {
    const parsed = AtifStepSchema.strict().safeParse(step);
    return parsed.success
      ? []
      : parsed.error.issues.map((issue) => ({ ...issue, path: ['steps', i, ...issue.path] }));
  });
  const subs = (document as { subagent_trajectories?: unknown[] }).subagent_trajectories ?? [];
  return [...stepIssues, ...subs.flatMap((sub) => atifStrictIssues(sub))];
}
