/**
 * The public API of HarnessEval. Every export is listed by name; a test pins the list.
 */

export { adapterOptionSchemas, builtinAdapterNames } from './adapters/catalog.ts';
export {
  type CompareOptions,
  type Comparison,
  checkRegressions,
  compareExperiments,
  type FlippedTask,
  type MetricComparison,
  type MetricDelta,
  metricDelta,
  type PairedMetric,
  type RegressionViolation,
} from './compare/index.ts';
export { renderComparisonMarkdown } from './compare/markdown.ts';
export { type PowerReport, powerFromBaseline, powerFromSd } from './compare/power-plan.ts';
export * from './core/index.ts';
export { builtinEvaluatorNames, evaluatorOptionSchemas } from './evaluators/catalog.ts';
export {
  detectFormat,
  type EvalCaseRecord,
  type EvalCaseV0,
  EvalCaseV0Schema,
  evalCaseToTask,
  FILE_KINDS,
  type FileKind,
  type FileReport,
  jsonSchemaFor,
  LINT_RULES,
  type LoadOptions,
  lintFile,
  loadHarnessConfig,
  loadRubric,
  loadSuite,
  loadTaskSpec,
  parseEvalCaseV0,
  safeLoadSuite,
  streamEvalCases,
  validateFile,
} from './formats/index.ts';
export { builtinMetricNames, metricCatalog } from './metrics/catalog.ts';
export type {
  ExperimentFilter,
  ExperimentPatch,
  ExperimentStore,
  ExperimentSummary,
  OpenStoreOptions,
} from './store/index.ts';
export {
  defaultStorePath,
  experimentToJson,
  exportExperiment,
  importExperiment,
  openStore,
  parseExperimentJson,
  readExperimentFile,
  redactSecrets,
  resolveExperimentId,
  storeExperiment,
} from './store/index.ts';
export {
  buildTimeline,
  renderTimelineMarkdown,
  sparkline,
  type Timeline,
  type TimelinePoint,
} from './timeline/index.ts';
export { analyzeRegex, type RegexSafety } from './util/regex-safety.ts';
