import { z } from 'zod';

/**
 * The parts of a Harbor job directory the importer reads, as Harbor writes them
 * (harbor-framework/harbor src/harbor/models/trial/result.py `TrialResult`,
 * models/agent/context.py `AgentContext`, models/verifier/result.py `VerifierResult`,
 * models/job/result.py). Unknown keys are allowed (Harbor adds fields between versions) and
 * reported by the importer; the fields it maps are type-checked.
 */
const time = z.string().nullable().optional();
const count = z.number().int().nonnegative().nullable().optional();

export const HarborTimingSchema = z
  .looseObject({ started_at: time, finished_at: time })
  .nullable()
  .optional();

export const HarborExceptionSchema = z.looseObject({
  exception_type: z.string(),
  exception_message: z.string().default(''),
  exception_traceback: z.string().default(''),
  occurred_at: time,
});
export type HarborException = z.infer<typeof HarborExceptionSchema>;

export const HarborRewardsSchema = z.record(z.string(), z.number().nullable());

export const HarborTrialResultSchema = z.looseObject({
  id: z.string().optional(),
  task_name: z.string().min(1),
  trial_name: z.string().min(1),
  trial_uri: z.string().optional(),
  task_id: z.unknown().optional(),
  source: z.string().nullable().optional(),
  task_checksum: z.string().optional(),
  config: z
    .looseObject({
      agent: z
        .looseObject({
          name: z.string().nullable().optional(),
          model_name: z.string().nullable().optional(),
          kwargs: z.record(z.string(), z.unknown()).nullable().optional(),
        })
        .optional(),
      job_id: z.string().nullable().optional(),
    })
    .optional(),
  agent_info: z.looseObject({
    name: z.string().min(1),
    version: z.string().default('unknown'),
    model_info: z
      .looseObject({ name: z.string(), provider: z.string().nullable().optional() })
      .nullable()
      .optional(),
  }),
  agent_result: z
    .looseObject({
      n_input_tokens: count,
      n_cache_tokens: count,
      n_output_tokens: count,
      cost_usd: z.number().nonnegative().nullable().optional(),
      rollout_details: z.unknown().optional(),
      metadata: z.record(z.string(), z.unknown()).nullable().optional(),
    })
    .nullable()
    .optional(),
  verifier_result: z
    .looseObject({ rewards: HarborRewardsSchema.nullable().optional() })
    .nullable()
    .optional(),
  exception_info: HarborExceptionSchema.nullable().optional(),
  started_at: time,
  finished_at: time,
  environment_setup: HarborTimingSchema,
  agent_setup: HarborTimingSchema,
  agent_execution: HarborTimingSchema,
  verifier: HarborTimingSchema,
  step_results: z.array(z.unknown()).nullable().optional(),
  environment_state: z.unknown().optional(),
});
export type HarborTrialResult = z.infer<typeof HarborTrialResultSchema>;

/** The fields of TrialResult the importer maps or keeps; any other key is reported as not read. */
export const HARBOR_TRIAL_FIELDS: ReadonlySet<string> = new Set([
  ...Object.keys(HarborTrialResultSchema.shape),
]);

/** The job's own result.json: its id and times (the per-eval stats are recomputed from the trials). */
export const HarborJobResultSchema = z.looseObject({
  id: z.string().optional(),
  started_at: time,
  finished_at: time,
  n_total_trials: z.number().int().nonnegative().optional(),
});
export type HarborJobResult = z.infer<typeof HarborJobResultSchema>;

/** `verifier/reward.json` (several named rewards), read when a trial's result.json has none. */
export const HarborRewardFileSchema = HarborRewardsSchema;
