import { z } from 'zod';
import type { Direction } from '../core/experiment.ts';
import { canonicalMetricName } from '../core/metric-names.ts';

const none = z.object({}).strict();
const k = z.object({ k: z.number().int().positive().default(1) }).strict();

/** Names, directions and option schemas of the built-in metrics (implementations load lazily). */
export const metricCatalog = {
  success_rate: {
    direction: 'higher_is_better',
    options: none,
    description: 'share of decided trials that passed; errors count as failures',
  },
  success_rate_completed: {
    direction: 'higher_is_better',
    options: none,
    description: 'share of completed trials (passed or failed) that passed; errored trials left out',
  },
  accuracy: { direction: 'higher_is_better', options: none, description: 'mean evaluator score' },
  error_rate: {
    direction: 'lower_is_better',
    options: none,
    description: 'share of trials the harness errored on (environment errors left out)',
  },
  agent_latency: {
    direction: 'lower_is_better',
    options: none,
    description: 'mean agent latency in seconds (the adapter’s time around the agent call)',
  },
  agent_latency_p50: { direction: 'lower_is_better', options: none, description: 'median agent latency' },
  agent_latency_p95: {
    direction: 'lower_is_better',
    options: none,
    description: '95th percentile agent latency',
  },
  trial_duration: {
    direction: 'lower_is_better',
    options: none,
    description: 'mean trial duration in seconds (wall clock: workspace, agent, checks)',
  },
  tokens_in: { direction: 'lower_is_better', options: none, description: 'mean input tokens per trial' },
  tokens_out: { direction: 'lower_is_better', options: none, description: 'mean output tokens per trial' },
  cost: { direction: 'lower_is_better', options: none, description: 'total cost in USD' },
  cost_per_task: { direction: 'lower_is_better', options: none, description: 'mean cost per trial in USD' },
  cost_per_success: {
    direction: 'lower_is_better',
    options: none,
    description: 'total cost / passed trials',
  },
  pass_at_k: { direction: 'higher_is_better', options: k, description: 'unbiased pass@k (Chen et al. 2021)' },
  pass_hat_k: { direction: 'higher_is_better', options: k, description: 'pass^k: all k attempts pass' },
  evaluator_score: {
    direction: 'higher_is_better',
    options: z.object({ evaluator: z.string() }).strict(),
    description: 'mean score of one evaluator',
  },
  overall_score: {
    direction: 'higher_is_better',
    options: none,
    description: 'the overall score: task-weighted mean of decided trials’ overall scores',
  },
  functional_completeness: {
    direction: 'higher_is_better',
    options: none,
    description: 'passed automated criteria / automated criteria',
  },
  prompts_unplanned: { direction: 'lower_is_better', options: none, description: 'mean unplanned prompts' },
  prompts_total: { direction: 'lower_is_better', options: none, description: 'mean operator prompts' },
  hitl_unplanned: { direction: 'lower_is_better', options: none, description: 'mean unplanned HITL steps' },
  hitl_total: { direction: 'lower_is_better', options: none, description: 'mean HITL steps' },
  first_pass_approval_rate: {
    direction: 'higher_is_better',
    options: none,
    description: 'share of reviewed runs approved on first pass',
  },
  human_time_min: { direction: 'lower_is_better', options: none, description: 'mean human minutes per run' },
  circuit_breakers: {
    direction: 'lower_is_better',
    options: none,
    description: 'mean breakers fired per run',
  },
  flaky_tasks: {
    direction: 'lower_is_better',
    options: none,
    description: 'tasks whose verdict differs between their attempts (epochs)',
  },
} as const satisfies Record<string, { direction: Direction; options: z.ZodType; description: string }>;

export type BuiltinMetricName = keyof typeof metricCatalog;
export const builtinMetricNames = Object.keys(metricCatalog) as BuiltinMetricName[];

/**
 * Aliases accepted in files: `pass@3` -> pass_at_k {k: 3}, `pass^3` -> pass_hat_k {k: 3}, and
 * renamed metrics under their old names (`latency` -> `agent_latency`).
 */
export function parseMetricAlias(name: string): { name: string; options: Record<string, unknown> } {
  const at = /^pass@(\d+)$/.exec(name);
  if (at) return { name: 'pass_at_k', options: { k: Number(at[1]) } };
  const hat = /^pass\^(\d+)$/.exec(name);
  if (hat) return { name: 'pass_hat_k', options: { k: Number(hat[1]) } };
  return { name: canonicalMetricName(name), options: {} };
}

export function isBuiltinMetric(name: string): name is BuiltinMetricName {
  return Object.hasOwn(metricCatalog, name);
}
