/** Input formats: the seed files, detected from content and converted to the canonical model. */
export type { BenchmarkFile } from './benchmark.ts';
export { detectDocumentKind, detectFormat, FILE_KINDS, type FileKind, isFileKind } from './detect.ts';
export { type EvalCaseRecord, streamEvalCases } from './eval-case-stream.ts';
export {
  CASE_ID_PATTERN,
  EVAL_CASE_SCHEMA_VERSION,
  type EvalCaseV0,
  EvalCaseV0Schema,
  evalCaseToTask,
  KNOWN_EVAL_CASE_VERSIONS,
  parseEvalCaseV0,
} from './eval-case-v0.ts';
export { jsonSchemaFor } from './json-schema.ts';
export { LINT_RULES, type LintCode, lintFile } from './lint.ts';
export {
  type FileReport,
  type LoadOptions,
  loadHarnessConfig,
  loadModelScript,
  loadRubric,
  loadSuite,
  loadTaskSpec,
  safeLoadSuite,
  validateFile,
} from './load.ts';
export { type ModelScript, ModelScriptSchema, type ScriptTurn } from './model-script.ts';
