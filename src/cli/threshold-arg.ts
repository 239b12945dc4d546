import { InvalidArgumentError } from 'commander';
import { type Threshold, ThresholdSchema } from '../core/suite.ts';

const KEYS = ['minimum', 'maximum', 'max_regression', 'require_significant'] as const;
type Key = (typeof KEYS)[number];

function isKey(key: string): key is Key {
  return (KEYS as readonly string[]).includes(key);
}

/**
 * `--threshold METRIC:KEY=VALUE[,KEY=VALUE]`, e.g. `success_rate:max_regression=0.05,require_significant=true`.
 * The metric name may itself contain `:` (`evaluator_score:regex:minimum=0.8`): the last `:`
 * before the first `=` separates it. Repeated flags for one metric merge.
 */
export function parseThresholdArg(
  text: string,
  previous: Record<string, Threshold> = {},
): Record<string, Threshold> {
  const eq = text.indexOf('=');
  const colon = eq < 0 ? -1 : text.lastIndexOf(':', eq);
  if (colon <= 0) {
    throw new InvalidArgumentError(
      `expected METRIC:KEY=VALUE (e.g. success_rate:max_regression=0.05), got "${text}"`,
    );
  }
  const metric = text.slice(0, colon);
  const raw: Record<string, number | boolean> = {};
  for (const part of text.slice(colon + 1).split(',')) {
    const [key = '', value = ''] = part.split('=', 2).map((s) => s.trim());
    if (!isKey(key))
      throw new InvalidArgumentError(`unknown threshold key "${key}" (expected ${KEYS.join(', ')})`);
    if (key === 'require_significant') {
      if (value !== 'true' && value !== 'false')
        throw new InvalidArgumentError(`require_significant must be true or false, got "${value}"`);
      raw[key] = value === 'true';
    } else {
      const n = Number(value);
      if (value === '' || !Number.isFinite(n))
        throw new InvalidArgumentError(`${key} must be a number, got "${value}"`);
      raw[key] = n;
    }
  }
  const parsed = ThresholdSchema.safeParse({ ...previous[metric], ...raw });
  if (!parsed.success)
    throw new InvalidArgumentError(`${metric}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return { ...previous, [metric]: parsed.data };
}
