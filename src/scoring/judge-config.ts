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

const DEFAULT_KEY_ENV: Record<JudgeConfig['provider'], string | undefined> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  'openai-compatible': undefined,
};

/**
 * Parses `--judge PROVIDER:MODEL[@BASE_URL]`, e.g. `openai:gpt-4.1-mini` or
 * `openai-compatible:qwen2.5@http://127.0.0.1:8080/v1`.
 */
export function parseJudgeSpec(spec: string): JudgeConfig {
  const match = /^(openai|anthropic|openai-compatible):([^@]+)(?:@(.+))?$/.exec(spec.trim());
  if (match === null)
    throw new Error(
      `expected PROVIDER:MODEL[@BASE_URL] with provider openai, anthropic or openai-compatible, got "${spec}"`,
    );
  return JudgeConfigSchema.parse({
    provider: match[1],
    model: match[2],
    ...(match[3] === undefined ? {} : { base_url: match[3] }),
  });
}

/**
 * Whether the judge can be called: the API key it needs is set (and a base URL for
 * openai-compatible). Without it, rubric criteria stay pending instead of failing.
 */
export function judgeAvailability(
  judge: JudgeConfig,
  env: NodeJS.ProcessEnv,
): { ok: true; apiKey?: string } | { ok: false; reason: string } {
  if (judge.provider === 'openai-compatible' && judge.base_url === undefined) {
    return { ok: false, reason: 'an openai-compatible judge needs base_url' };
  }
  const keyEnv = judge.api_key_env ?? DEFAULT_KEY_ENV[judge.provider];
  if (keyEnv === undefined) return { ok: true };
  const apiKey = env[keyEnv];
  if (apiKey === undefined || apiKey === '') return { ok: false, reason: `${keyEnv} is not set` };
  return { ok: true, apiKey };
}
