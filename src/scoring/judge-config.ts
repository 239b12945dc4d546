import { HarnessEvalError } from '../core/errors.ts';
import { type JudgeConfig, JudgeConfigSchema, judgeFromSpec } from '../core/judge.ts';

export { type JudgeConfig, JudgeConfigSchema };

const DEFAULT_KEY_ENV: Record<JudgeConfig['provider'], string | undefined> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  'openai-compatible': undefined,
};

/**
 * Parses `--judge PROVIDER:MODEL[@BASE_URL]`, e.g. `openai:gpt-4.1-mini` or
 * `openai-compatible:qwen2.5@http://127.0.0.1:8080/v1`; anything else is a usage error.
 */
export function parseJudgeSpec(spec: string): JudgeConfig {
  const judge = judgeFromSpec(spec);
  if (judge === undefined)
    throw new HarnessEvalError(
      'usage',
      `--judge: expected PROVIDER:MODEL[@BASE_URL] with provider openai, anthropic or openai-compatible (e.g. openai:gpt-4.1-mini), got "${spec}"`,
    );
  return judge;
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
