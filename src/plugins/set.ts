import { AdapterRegistry, defaultAdapterRegistry } from '../adapters/registry.ts';
import { defaultEvaluatorRegistry, EvaluatorRegistry } from '../evaluators/registry.ts';
import { defaultMetricRegistry, MetricRegistry } from '../metrics/registry.ts';
import { defaultReporterRegistry, ReporterRegistry } from '../reporters/registry.ts';

/**
 * One registry per plugin kind. A run, a file load and a plugin module each take a set
 * explicitly, so two runs in one process can use different plugins under the same names; the
 * default set (`defaultPlugins`) is what `registerEvaluator` & co. use, and what a run or a load
 * that names no set reads.
 */
export interface PluginSet {
  readonly evaluators: EvaluatorRegistry;
  readonly metrics: MetricRegistry;
  readonly adapters: AdapterRegistry;
  readonly reporters: ReporterRegistry;
}

/** The process-wide set: the globals of `registerEvaluator`, `registerMetric`, `registerAdapter`, `registerReporter`. */
export const defaultPlugins: PluginSet = {
  evaluators: defaultEvaluatorRegistry,
  metrics: defaultMetricRegistry,
  adapters: defaultAdapterRegistry,
  reporters: defaultReporterRegistry,
};

/** A new set holding the built-ins only; the default set is not touched by what is registered in it. */
export function emptyPluginSet(): PluginSet {
  return {
    evaluators: new EvaluatorRegistry(),
    metrics: new MetricRegistry(),
    adapters: new AdapterRegistry(),
    reporters: new ReporterRegistry(),
  };
}

/**
 * A new set that starts with the plugins `base` holds now; what is registered in it later stays
 * in it. A CLI invocation and a queued experiment each work in one, so the plugin modules they
 * load never reach the default set or another run.
 */
export function copyPluginSet(base: PluginSet): PluginSet {
  const copy = emptyPluginSet();
  for (const definition of base.evaluators.plugins()) copy.evaluators.register(definition);
  for (const definition of base.metrics.plugins()) copy.metrics.register(definition);
  for (const definition of base.adapters.plugins()) copy.adapters.register(definition);
  for (const definition of base.reporters.plugins()) copy.reporters.register(definition);
  return copy;
}
