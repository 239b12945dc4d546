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
