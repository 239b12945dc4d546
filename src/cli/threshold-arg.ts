import { InvalidArgumentError } from 'commander';
import { canonicalMetricName } from '../core/metric-names.ts';
import type { Threshold } from '../core/suite.ts';

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
  // `latency:...` is the renamed `agent_latency`.
  const metric = canonicalMetricName(text.slice(0, colon));
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
      if (key === 'max_regression' && n < 0)
        throw new InvalidArgumentError(`max_regression must not be negative, got "${value}"`);
      raw[key] = n;
    }
  }
  // ThresholdSchema's rules, checked here so that parsing flags does not load zod (start-up).
  const rule: Threshold = { require_significant: false, ...previous[metric], ...raw };
  if (rule.minimum !== undefined && rule.maximum !== undefined && rule.minimum > rule.maximum)
    throw new InvalidArgumentError(`${metric}: minimum must not be greater than maximum`);
  return { ...previous, [metric]: rule };
}
