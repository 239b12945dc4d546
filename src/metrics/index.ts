export { type MetricShape, meanOverTasks, type TrialValue } from './aggregate.ts';
export {
  type BuiltinMetricName,
  builtinMetricNames,
  isBuiltinMetric,
  metricCatalog,
  parseMetricAlias,
} from './catalog.ts';
export { computeMetrics, defaultMetrics } from './compute.ts';
export { formatMetricValue, type MetricUnit } from './format.ts';
export { agentLatencyOf } from './latency.ts';
export { trialScore } from './outcome.ts';
export {
  builtinMetrics,
  createMetric,
  defaultMetricRegistry,
  MetricRegistry,
  type MetricSpec,
  registerMetric,
} from './registry.ts';
export type { MetricDefinition, MetricInput, MetricTask, MetricV1 } from './types.ts';
