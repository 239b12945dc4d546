import { AdapterRegistry, defaultAdapterRegistry } from '../adapters/registry.ts';
import { defaultEvaluatorRegistry, EvaluatorRegistry } from '../evaluators/registry.ts';
import { defaultMetricRegistry, MetricRegistry } from '../metrics/registry.ts';
import { defaultReporterRegistry, ReporterRegistry } from '../reporters/registry.ts';

/**
 * One registry per plugin kind. A run, a file load and a plugin module each take a set
 * explicitly, so two runs in one process can use different plugins under the same names; the
 * default set (`defaultPlugins`) is what `registerEvaluator` & co., `--plugin` and a file's
 * `plugins:` use when no set is given.
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
