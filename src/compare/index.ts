export {
  compareByDomain,
  type DomainComparison,
  type DomainMetricComparison,
  domainMap,
  type PooledMetric,
} from './by-domain.ts';
export { type CompareOptions, compareExperiments } from './compare.ts';
export { formatPercent, metricDelta, relativeWorsening } from './delta.ts';
export { failureExplanation, flippedTasks, PASS_MAJORITY, taskPassRates } from './flips.ts';
export { experimentLabels, orderMetricNames, PREFERRED_METRIC_ORDER } from './labels.ts';
export { metricForResult, perTaskValues } from './per-task.ts';
export { checkRegressions } from './regression.ts';
export type {
  ComparedExperiment,
  Comparison,
  FlippedTask,
  MetricComparison,
  MetricDelta,
  MetricValue,
  PairComparison,
  PairedMetric,
  RegressionViolation,
} from './types.ts';
