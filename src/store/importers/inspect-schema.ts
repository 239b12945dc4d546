import { z } from 'zod';

/**
 * The parts of an Inspect AI eval log the importer reads (UKGovernmentBEIS/inspect_ai
 * src/inspect_ai/log/_log.py `EvalLog`, `EvalSpec`, `EvalSample`, `EvalStats`; model/_model_output.py
 * `ModelUsage`; scorer/_metric.py `Score`). Unknown keys are allowed and reported.
 */
const time = z.string().nullable().optional();

export const InspectModelUsageSchema = z.looseObject({
  input_tokens: z.number().nonnegative().default(0),
  output_tokens: z.number().nonnegative().default(0),
  total_tokens: z.number().nonnegative().default(0),
  input_tokens_cache_write: z.number().nonnegative().nullable().optional(),
  input_tokens_cache_read: z.number().nonnegative().nullable().optional(),
  reasoning_tokens: z.number().nonnegative().nullable().optional(),
  total_cost: z.number().nonnegative().nullable().optional(),
});
export type InspectModelUsage = z.infer<typeof InspectModelUsageSchema>;

const scalar = z.union([z.string(), z.number(), z.boolean()]);
export const InspectScoreSchema = z.looseObject({
  value: z.union([scalar, z.array(scalar), z.record(z.string(), z.union([scalar, z.null()]))]),
  answer: z.string().nullable().optional(),
  explanation: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type InspectScore = z.infer<typeof InspectScoreSchema>;

const ToolCallSchema = z.looseObject({
  id: z.string(),
  function: z.string(),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

export const InspectMessageSchema = z.looseObject({
  role: z.string(),
  content: z.unknown().optional(),
  tool_calls: z.array(ToolCallSchema).nullable().optional(),
  tool_call_id: z.string().nullable().optional(),
  error: z.looseObject({ message: z.string().optional() }).nullable().optional(),
});
export type InspectMessage = z.infer<typeof InspectMessageSchema>;

export const InspectErrorSchema = z.looseObject({
  message: z.string(),
  traceback: z.string().default(''),
});

export const InspectSampleSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  epoch: z.number().int().positive(),
  input: z.unknown(),
  target: z.union([z.string(), z.array(z.string())]).optional(),
  choices: z.array(z.string()).nullable().optional(),
  messages: z.array(InspectMessageSchema).default([]),
  output: z
    .looseObject({
      model: z.string().optional(),
      completion: z.string().optional(),
      error: z.string().nullable().optional(),
    })
    .optional(),
  scores: z.record(z.string(), InspectScoreSchema).nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
  model_usage: z.record(z.string(), InspectModelUsageSchema).default({}),
  started_at: time,
  completed_at: time,
  total_time: z.number().nonnegative().nullable().optional(),
  working_time: z.number().nonnegative().nullable().optional(),
  uuid: z.string().nullable().optional(),
  error: InspectErrorSchema.nullable().optional(),
  error_retries: z.array(z.unknown()).nullable().optional(),
  limit: z.looseObject({ type: z.string(), limit: z.number().nullable().optional() }).nullable().optional(),
  events: z.array(z.unknown()).optional(),
  attachments: z.record(z.string(), z.unknown()).optional(),
  store: z.record(z.string(), z.unknown()).optional(),
  sandbox: z.unknown().optional(),
  files: z.unknown().optional(),
  setup: z.unknown().optional(),
});
export type InspectSample = z.infer<typeof InspectSampleSchema>;
export const INSPECT_SAMPLE_FIELDS: ReadonlySet<string> = new Set(Object.keys(InspectSampleSchema.shape));

export const InspectHeaderSchema = z.looseObject({
  version: z.number().int().optional(),
  status: z.enum(['started', 'success', 'cancelled', 'error']).default('started'),
  eval: z.looseObject({
    eval_id: z.string().optional(),
    run_id: z.string().optional(),
    created: z.string(),
    task: z.string().min(1),
    task_id: z.string().optional(),
    task_version: z.union([z.number(), z.string()]).optional(),
    solver: z.string().nullable().optional(),
    model: z.string(),
    dataset: z.looseObject({ name: z.string().nullable().optional() }).optional(),
    packages: z.record(z.string(), z.string()).optional(),
  }),
  plan: z.looseObject({ steps: z.array(z.looseObject({ solver: z.string() })).default([]) }).optional(),
  results: z
    .looseObject({
      scores: z.array(z.looseObject({ name: z.string(), scorer: z.string().optional() })).default([]),
    })
    .nullable()
    .optional(),
  stats: z.looseObject({ started_at: time, completed_at: time }).optional(),
  error: InspectErrorSchema.nullable().optional(),
});
export type InspectHeader = z.infer<typeof InspectHeaderSchema>;

export const InspectLogSchema = InspectHeaderSchema.extend({
  samples: z.array(InspectSampleSchema).nullable().optional(),
});
