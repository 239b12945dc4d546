export * from './agent-output.ts';
// formatPath is internal (how readers write a diagnostic's path), so not `export *`.
export { type Diagnostic, formatDiagnostic, type Severity } from './diagnostic.ts';
export * from './diagnostic-schema.ts';
export * from './errors.ts';
export * from './evaluation.ts';
export * from './experiment.ts';
export * from './gateway-config.ts';
export * from './harness-config.ts';
export { type JudgeConfig, JudgeConfigSchema, JudgeSettingSchema } from './judge.ts';
export * from './plugin-ref.ts';
export * from './rubric.ts';
export * from './run-record.ts';
export * from './suite.ts';
export * from './task.ts';
