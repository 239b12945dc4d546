import { z } from 'zod';

/** The model that grades rubric criteria. It must not be the model that produced the work. */
export const JudgeConfigSchema = z
  .object({
    provider: z.enum(['openai', 'anthropic', 'openai-compatible']).default('openai-compatible'),
    model: z.string().min(1),
    /** Required for openai-compatible (a local server such as vLLM, llama.cpp or Ollama). */
    base_url: z.string().url().optional(),
    /** Name of the environment variable holding the API key — never the key itself. */
    api_key_env: z.string().optional(),
    /** Grade each dimension this many times and average (levels are integers; scores average). */
    samples: z.number().int().positive().max(20).default(1),
    allow_self_judge: z.boolean().default(false),
  })
  .strict();
export type JudgeConfig = z.infer<typeof JudgeConfigSchema>;

/**
 * `PROVIDER:MODEL[@BASE_URL]`, the short form of a judge on the command line and in a suite:
 * `openai:gpt-4.1-mini`, `openai-compatible:qwen2.5:7b@http://127.0.0.1:11434/v1`.
 */
export const JUDGE_SPEC_PATTERN = /^(openai|anthropic|openai-compatible):([^@\s]+)(?:@(\S+))?$/;

/** The judge a `PROVIDER:MODEL[@BASE_URL]` string names, or undefined when it is not one. */
export function judgeFromSpec(spec: string): JudgeConfig | undefined {
  const match = JUDGE_SPEC_PATTERN.exec(spec.trim());
  if (match === null) return undefined;
  const parsed = JudgeConfigSchema.safeParse({
    provider: match[1],
    model: match[2],
    ...(match[3] === undefined ? {} : { base_url: match[3] }),
  });
  return parsed.success ? parsed.data : undefined;
}

/** A judge as a file writes it: the full object, or the `PROVIDER:MODEL[@BASE_URL]` string. */
export const JudgeSettingSchema = z.union([
  z
    .string()
    .regex(JUDGE_SPEC_PATTERN)
    .transform((spec, ctx) => {
      const judge = judgeFromSpec(spec);
      if (judge === undefined) {
        ctx.addIssue({ code: 'custom', message: `invalid judge "${spec}": the base URL is not a URL` });
        return z.NEVER;
      }
      return judge;
    }),
  JudgeConfigSchema,
]);
