import { z } from 'zod';
import { HarnessEvalError } from '../core/errors.ts';
import type { MetricRef } from '../core/plugin-ref.ts';
import { alreadyRegistered, declarePlugin } from '../plugins/known.ts';
import { closestName } from '../util/suggest.ts';
import { type BuiltinMetricName, isBuiltinMetric, type metricCatalog, parseMetricAlias } from './catalog.ts';
import { flakyTasksMetric } from './flaky.ts';
import { agentLatency, agentLatencyP50, agentLatencyP95, trialDuration } from './latency.ts';
import {
  accuracy,
  errorRate,
  evaluatorScore,
  passAtKMetric,
  passHatKMetric,
  successRate,
  successRateCompleted,
} from './outcome.ts';
import {
  circuitBreakers,
  firstPassApprovalRate,
  functionalCompleteness,
  hitlTotal,
  hitlUnplanned,
  humanTimeMin,
  overallScoreMetric,
  promptsTotal,
  promptsUnplanned,
} from './process.ts';
import type { MetricDefinition, MetricV1 } from './types.ts';
import { cost, costPerSuccess, costPerTask, tokensIn, tokensOut } from './usage.ts';

/** The built-in metrics. The compiler checks that every catalog name has its definition. */
export const builtinMetrics = {
  success_rate: successRate,
  success_rate_completed: successRateCompleted,
  accuracy,
  error_rate: errorRate,
  agent_latency: agentLatency,
  agent_latency_p50: agentLatencyP50,
  agent_latency_p95: agentLatencyP95,
  trial_duration: trialDuration,
  tokens_in: tokensIn,
  tokens_out: tokensOut,
  cost,
  cost_per_task: costPerTask,
  cost_per_success: costPerSuccess,
  pass_at_k: passAtKMetric,
  pass_hat_k: passHatKMetric,
  evaluator_score: evaluatorScore,
  overall_score: overallScoreMetric,
  functional_completeness: functionalCompleteness,
  prompts_unplanned: promptsUnplanned,
  prompts_total: promptsTotal,
  hitl_unplanned: hitlUnplanned,
  hitl_total: hitlTotal,
  first_pass_approval_rate: firstPassApprovalRate,
  human_time_min: humanTimeMin,
  circuit_breakers: circuitBreakers,
  flaky_tasks: flakyTasksMetric,
} as const satisfies { [N in BuiltinMetricName]: MetricDefinition<(typeof metricCatalog)[N]['options']> };

/** A metric named in a file (`success_rate`, `pass@3`, `{name, options}`) or given as an instance. */
export type MetricSpec = string | MetricRef | MetricV1;

function isMetricInstance(spec: MetricSpec): spec is MetricV1 {
  return typeof spec === 'object' && 'specificationVersion' in spec;
}

/**
 * Built-ins plus user plugins. Most callers use the default registry through `createMetric` and
 * `registerMetric`; tests and embedders that need isolation make their own.
 */
export class MetricRegistry {
  readonly #plugins = new Map<string, MetricDefinition>();

  /** Adds a user metric; a name already taken (built-in or plugin) is a configuration error. */
  /** Adds a metric; returns a function that removes it again. */
  register(definition: MetricDefinition): () => void {
    const existing = this.#plugins.get(definition.name);
    // The same definition again (a plugin module loaded twice) is a no-op; another one is refused.
    if (isBuiltinMetric(definition.name) || (existing !== undefined && existing !== definition))
      throw alreadyRegistered('metric', definition.name);
    this.#plugins.set(definition.name, definition);
    const undeclare =
      this === defaultMetricRegistry
        ? declarePlugin('metric', definition.name, definition.options)
        : () => {};
    return () => {
      if (this.#plugins.get(definition.name) !== definition) return;
      this.#plugins.delete(definition.name);
      undeclare();
    };
  }

  has(name: string): boolean {
    const { name: resolved } = parseMetricAlias(name);
    return isBuiltinMetric(resolved) || this.#plugins.has(resolved);
  }

  names(): string[] {
    return [...Object.keys(builtinMetrics), ...this.#plugins.keys()];
  }

  definition(name: string): MetricDefinition | undefined {
    if (isBuiltinMetric(name)) return builtinMetrics[name];
    return this.#plugins.get(name);
  }

  /**
   * A metric instance from its reference; options are checked against the metric's schema.
   * Throws `HarnessEvalError('invalid_config')` for an unknown name ("did you mean …") or bad options.
   */
  create(spec: MetricSpec): MetricV1 {
    if (isMetricInstance(spec)) return spec;
    const ref = typeof spec === 'string' ? { name: spec, options: {} } : spec;
    const alias = parseMetricAlias(ref.name);
    const definition = this.definition(alias.name);
    if (!definition) {
      const suggestion = closestName(alias.name, [...this.names(), 'pass@K', 'pass^K']);
      throw new HarnessEvalError(
        'invalid_config',
        `unknown metric "${ref.name}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`,
        { data: { metric: ref.name, known: this.names(), ...(suggestion ? { suggestion } : {}) } },
      );
    }
    const parsed = definition.options.safeParse({ ...alias.options, ...ref.options });
    if (!parsed.success) {
      throw new HarnessEvalError(
        'invalid_config',
        `metric "${ref.name}": invalid options: ${z.prettifyError(parsed.error).replaceAll('\n', '; ')}`,
        { cause: parsed.error, data: { metric: ref.name } },
      );
    }
    return definition.create(parsed.data);
  }
}

export const defaultMetricRegistry = new MetricRegistry();

/** `createMetric('pass@3')`, `createMetric({ name: 'evaluator_score', options: { evaluator: 'regex' } })`. */
export function createMetric(spec: MetricSpec, registry: MetricRegistry = defaultMetricRegistry): MetricV1 {
  return registry.create(spec);
}

/** Registers a user metric plugin in the default registry. */
export function registerMetric(
  definition: MetricDefinition,
  registry: MetricRegistry = defaultMetricRegistry,
): () => void {
  return registry.register(definition);
}
