/**
 * The public API of HarnessEval. Every export is listed by name; a test pins the list.
 */

export {
  abortedOutput,
  adapterNames,
  adapterOptionSchemas,
  builtinAdapterNames,
  createAgent,
  type FunctionAgentContext,
  failedOutput,
  registerAdapter,
} from './adapters/index.ts';
export type { AdapterDefinition, AdapterEnvironment, AgentV1, TrialContext } from './adapters/types.ts';
export { Evaluator, type EvaluatorConfig, type EvaluatorInit } from './api/evaluator.ts';
export { TaskRun } from './api/task-run.ts';
export { TaskSpec } from './api/task-spec.ts';
export {
  type CompareOptions,
  type Comparison,
  checkRegressions,
  compareExperiments,
  type DomainComparison,
  type FlippedTask,
  type MetricComparison,
  type MetricDelta,
  metricDelta,
  type PairedMetric,
  type RegressionViolation,
} from './compare/index.ts';
export { type PowerReport, powerFromBaseline, powerFromSd } from './compare/power-plan.ts';
export * from './core/index.ts';
export {
  builtinEvaluatorNames,
  createEvaluator,
  type EvaluationContext,
  type EvaluatorDefinition,
  type EvaluatorEnvironment,
  type EvaluatorV1,
  evaluatorNames,
  evaluatorOptionSchemas,
  registerEvaluator,
} from './evaluators/index.ts';
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
  loadModelScript,
  loadRubric,
  loadSuite,
  loadTaskSpec,
  type ModelScript,
  ModelScriptSchema,
  parseEvalCaseV0,
  safeLoadSuite,
  streamEvalCases,
  validateFile,
} from './formats/index.ts';
export {
  Cassette,
  Gateway,
  type GatewayCall,
  GatewayCallSchema,
  type GatewayOptions,
  type GatewayRoute,
  type StartGatewayOptions,
  startGateway,
} from './gateway/index.ts';
export { EVENTS_ENV, type HarnessEvent, HarnessEventSchema, parseEvents } from './instrument/events.ts';
export { type Harness, type HarnessContext, type HarnessResult, harnessAgent } from './instrument/harness.ts';
export { ingestOtlp, type OtelIngest } from './instrument/otel.ts';
export { costOf, DEFAULT_PRICES, findPrice, mergePrices, type PriceTable } from './instrument/pricing.ts';
export { processMetrics } from './instrument/process-metrics.ts';
export { RunTracker, type TrackerViews } from './instrument/tracker.ts';
export {
  builtinMetricNames,
  computeMetrics,
  createMetric,
  defaultMetrics,
  type MetricDefinition,
  type MetricInput,
  type MetricV1,
  metricCatalog,
  registerMetric,
} from './metrics/index.ts';
export { loadFilePlugins } from './plugins/file-plugins.ts';
export {
  createPluginSet,
  definePlugin,
  type HarnessEvalPlugin,
  loadPlugin,
  type PluginReporter,
  registerPlugin,
} from './plugins/load.ts';
export { defaultPlugins, type PluginSet } from './plugins/set.ts';
export { renderComparisonConsole, renderComparisonMarkdown } from './reporters/comparison/index.ts';
export { renderExperimentHtml } from './reporters/html/index.ts';
export {
  getReporter,
  type ReporterEntry,
  registerReporter,
  reporterForFile,
  reporterNames,
} from './reporters/registry.ts';
export { renderTimelineConsole, renderTimelineMarkdown, sparkline } from './reporters/timeline/index.ts';
export type { RecordPages, ReporterV1, ReportOptions, ReportWriter, TrialGlance } from './reporters/types.ts';
export type { RunnerEvent, RunProgress } from './runner/events.ts';
export { type RunExperimentOptions, runExperiment } from './runner/runner.ts';
export { parseJudgeSpec } from './scoring/judge-config.ts';
export { scoreRecord } from './scoring/record-score.ts';
export { rubricLevelScore } from './scoring/rubric-score.ts';
export { scoreSuite } from './scoring/suite-score.ts';
export { checkThresholds } from './scoring/thresholds.ts';
export {
  bootstrapCi,
  comparePaired,
  mcnemarExact,
  minimumDetectableEffect,
  pairedDifference,
  passAtK,
  passHatK,
  stratifiedPaired,
  tasksNeeded,
} from './stats/index.ts';
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
export { buildTimeline, type Timeline, type TimelinePoint } from './timeline/index.ts';
export { analyzeRegex, type RegexSafety } from './util/regex-safety.ts';
