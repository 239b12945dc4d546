import type { MetricRef } from '../core/plugin-ref.ts';
import { type BuiltinEntry, definePluginKind, PluginRegistry } from '../plugins/kind.ts';
import {
  hasMethods,
  missingMethods,
  specificationVersionOf,
  unsupportedVersion,
} from '../plugins/version.ts';
import { type BuiltinMetricName, type metricCatalog, parseMetricAlias } from './catalog.ts';
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

/** An instance, not a reference: it can calculate (its version is checked at the seam). */
function isMetricInstance(spec: MetricSpec): spec is MetricV1 {
  return typeof spec === 'object' && 'calculate' in spec;
}

/** The metric contract versions this HarnessEval runs. */
export const METRIC_VERSIONS = ['v1'] as const;

/** The seam of the metric contract: an instance of any supported version becomes a `MetricV1`. */
export function resolveMetric(instance: unknown, name: string): MetricV1 {
  const version = specificationVersionOf(instance);
  switch (version) {
    case 'v1':
      if (hasMethods<MetricV1>(instance, ['calculate'])) return instance;
      throw missingMethods('metric', name, version, ['calculate']);
    default:
      throw unsupportedVersion('metric', name, version, METRIC_VERSIONS);
  }
}

/** Metric built-ins are small pure functions, so they are given, not imported on first use. */
const builtinEntries: Record<string, BuiltinEntry<MetricDefinition>> = {};
for (const definition of Object.values(builtinMetrics))
  builtinEntries[definition.name] = {
    options: definition.options,
    description: definition.description,
    definition,
  };

export const metricKind = definePluginKind<MetricDefinition, MetricV1, typeof builtinEntries>({
  kind: 'metric',
  builtins: builtinEntries,
  versions: METRIC_VERSIONS,
  resolve: resolveMetric,
});

/**
 * The metrics of one plugin set: built-ins plus plugins. Most callers use the default registry
 * through `createMetric` and `registerMetric`; a plugin set (`createPluginSet`) has its own.
 */
export class MetricRegistry extends PluginRegistry<MetricDefinition, MetricV1, typeof builtinEntries> {
  constructor() {
    super(metricKind);
  }

  /** Whether a name, or an alias (`pass@3`, `latency`), names a metric. */
  override has(name: string): boolean {
    return super.has(parseMetricAlias(name).name);
  }

  definition(name: string): MetricDefinition | undefined {
    return this.definitionNow(name);
  }

  /**
   * A metric instance from its reference; options are checked against the metric's schema.
   * Throws `HarnessEvalError('invalid_config')` for an unknown name ("did you mean …") or bad options.
   */
  create(spec: MetricSpec): MetricV1 {
    if (isMetricInstance(spec)) return this.resolve(spec, spec.name);
    const ref = typeof spec === 'string' ? { name: spec, options: {} } : spec;
    const alias = parseMetricAlias(ref.name);
    const definition = this.definitionNow(alias.name);
    if (!definition) throw this.unknown(alias.name, ref.name, ['pass@K', 'pass^K']);
    const parsed = definition.options.safeParse({ ...alias.options, ...ref.options });
    if (!parsed.success) throw this.optionsError(ref.name, parsed.error);
    return this.resolve(definition.create(parsed.data), ref.name);
  }
}

/** The metrics of the default plugin set. */
export const defaultMetricRegistry = new MetricRegistry();

/** `createMetric('pass@3')`, `createMetric({ name: 'evaluator_score', options: { evaluator: 'regex' } })`. */
export function createMetric(spec: MetricSpec, registry: MetricRegistry = defaultMetricRegistry): MetricV1 {
  return registry.create(spec);
}

/** Registers a user metric plugin (in the default set unless a registry is given); returns its unregister function. */
export function registerMetric(
  definition: MetricDefinition,
  registry: MetricRegistry = defaultMetricRegistry,
): () => void {
  return registry.register(definition);
}
