import type { z } from 'zod';
import { defaultAdapterRegistry } from '../adapters/registry.ts';
import type { Diagnostic } from '../core/diagnostic.ts';
import { defaultEvaluatorRegistry } from '../evaluators/registry.ts';
import { parseMetricAlias } from '../metrics/catalog.ts';
import { defaultMetricRegistry } from '../metrics/registry.ts';
import { unknownNameMessage } from '../util/suggest.ts';
import { type FieldPath, issuesToDiagnostics, type Locate, located } from './issues.ts';
import { adapterOptionProblems, evaluatorOptionProblems, type OptionProblem } from './option-checks.ts';

/** What a file check reads of one kind's registry: its names and option schemas, never its code. */
export interface PluginNamesOfKind {
  names(): string[];
  has(name: string): boolean;
  options(name: string): z.ZodType | undefined;
}

/**
 * The registries a file is checked against: a `PluginSet` is one. Without one, the default set's
 * (what `registerEvaluator` & co. add to).
 */
export interface PluginNames {
  readonly evaluators: PluginNamesOfKind;
  readonly metrics: PluginNamesOfKind;
  readonly adapters: PluginNamesOfKind;
}

const DEFAULT_NAMES: PluginNames = {
  evaluators: defaultEvaluatorRegistry,
  metrics: defaultMetricRegistry,
  adapters: defaultAdapterRegistry,
};

/**
 * Checks plugin references against the registries when a file loads: an unknown name fails
 * with a "did you mean" suggestion, and options are checked against the plugin's own schema,
 * located at the option that is wrong.
 */
export interface PluginCheckContext {
  readonly file: string;
  readonly locate: Locate;
  readonly diagnostics: Diagnostic[];
  /**
   * False skips the adapter's option checks (a module that must exist): the run replaces this
   * file's `agent:` with `--harness`, so its agent is never created.
   */
  readonly checkAgent?: boolean;
  /** The plugin set whose names the file may use; the default set's when absent. */
  readonly plugins?: PluginNames | undefined;
}

function namesOf(ctx: PluginCheckContext): PluginNames {
  return ctx.plugins ?? DEFAULT_NAMES;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `{name, options}` at `path`; anything that is not such an object is left to the schema. */
export function checkEvaluatorRef(ctx: PluginCheckContext, raw: unknown, path: FieldPath): void {
  if (!isRecord(raw) || typeof raw['name'] !== 'string') return;
  const name = raw['name'];
  const evaluators = namesOf(ctx).evaluators;
  const schema = evaluators.options(name);
  if (schema === undefined) {
    const at = [...path, 'name'];
    const known = evaluators.names();
    ctx.diagnostics.push(located(ctx.file, ctx.locate(at), at, unknownNameMessage('evaluator', name, known)));
    return;
  }
  const options = raw['options'] ?? {};
  const result = schema.safeParse(options, { reportInput: true });
  if (!result.success) {
    ctx.diagnostics.push(
      ...issuesToDiagnostics(result.error.issues, ctx.file, ctx.locate, [...path, 'options']),
    );
    return;
  }
  // What the evaluator's create() would refuse when the run starts is refused here (one rule set).
  if (isRecord(options)) pushProblems(ctx, evaluatorOptionProblems(name, options, ctx), [...path, 'options']);
}

function pushProblems(ctx: PluginCheckContext, problems: readonly OptionProblem[], base: FieldPath): void {
  for (const problem of problems) {
    const at = [...base, ...problem.option];
    const d = located(ctx.file, ctx.locate(at), at, problem.message, problem.expected);
    ctx.diagnostics.push(problem.code === undefined ? d : { ...d, code: problem.code });
  }
}

/** A metric written as a name (`success_rate`, `pass@3`) or as `{name, options}`. */
export function checkMetricRef(ctx: PluginCheckContext, raw: unknown, path: FieldPath): void {
  const written =
    typeof raw === 'string'
      ? raw
      : isRecord(raw) && typeof raw['name'] === 'string'
        ? raw['name']
        : undefined;
  if (written === undefined) return;
  const { name, options: aliasOptions } = parseMetricAlias(written);
  const namePath = typeof raw === 'string' ? path : [...path, 'name'];
  const metrics = namesOf(ctx).metrics;
  const schema = metrics.options(name);
  if (schema === undefined) {
    ctx.diagnostics.push(
      located(
        ctx.file,
        ctx.locate(namePath),
        namePath,
        unknownNameMessage('metric', written, metrics.names()),
      ),
    );
    return;
  }
  const given = isRecord(raw) && isRecord(raw['options']) ? raw['options'] : {};
  const result = schema.safeParse({ ...aliasOptions, ...given }, { reportInput: true });
  if (!result.success) {
    const prefix = typeof raw === 'string' ? path : [...path, 'options'];
    ctx.diagnostics.push(...issuesToDiagnostics(result.error.issues, ctx.file, ctx.locate, prefix));
  }
}

/** Checks a metric name used as a threshold key (aliases allowed). */
export function checkMetricName(ctx: PluginCheckContext, written: string, path: FieldPath): boolean {
  const { name } = parseMetricAlias(written);
  const metrics = namesOf(ctx).metrics;
  if (metrics.has(name)) return true;
  const known = metrics.names();
  ctx.diagnostics.push(
    located(ctx.file, ctx.locate(path), path, unknownNameMessage('metric', written, known)),
  );
  return false;
}

/**
 * An adapter name and its options. `optionsPath` is where the options are written: a nested
 * `options:` map, or the mapping that holds `adapter:` itself when the options sit beside it.
 */
export function checkAdapter(
  ctx: PluginCheckContext,
  name: unknown,
  options: Record<string, unknown>,
  namePath: FieldPath,
  optionsPath: FieldPath,
): void {
  if (typeof name !== 'string') return;
  const adapters = namesOf(ctx).adapters;
  const schema = adapters.options(name);
  if (schema === undefined) {
    const known = adapters.names();
    ctx.diagnostics.push(
      located(ctx.file, ctx.locate(namePath), namePath, unknownNameMessage('adapter', name, known)),
    );
    return;
  }
  const result = schema.safeParse(options, { reportInput: true });
  if (!result.success) {
    ctx.diagnostics.push(...issuesToDiagnostics(result.error.issues, ctx.file, ctx.locate, optionsPath));
    return;
  }
  if (ctx.checkAgent !== false) pushProblems(ctx, adapterOptionProblems(name, options, ctx), optionsPath);
}

/** Metrics whose values are rates or scores in [0, 1]; every other metric is >= 0. */
export function isUnitIntervalMetric(name: string): boolean {
  return (
    name.endsWith('_rate') ||
    [
      'accuracy',
      'pass_at_k',
      'pass_hat_k',
      'functional_completeness',
      'overall_score',
      'evaluator_score',
    ].includes(name)
  );
}

/** A file's `thresholds:` map: each key a known metric, each bound in range for it. */
export function checkThresholds(ctx: PluginCheckContext, raw: unknown): void {
  if (!isRecord(raw)) return;
  for (const [metric, t] of Object.entries(raw))
    if (checkMetricName(ctx, metric, ['thresholds', metric]))
      checkThresholdRange(ctx, metric, t, ['thresholds', metric]);
}

/** Threshold bounds in range for their metric: `{minimum|maximum}` in [0,1] for rates, >= 0 otherwise. */
export function checkThresholdRange(
  ctx: PluginCheckContext,
  metric: string,
  raw: unknown,
  path: FieldPath,
): void {
  if (!isRecord(raw)) return;
  const { name } = parseMetricAlias(metric);
  const unit = isUnitIntervalMetric(name);
  for (const bound of ['minimum', 'maximum'] as const) {
    const value = raw[bound];
    // A non-finite bound (1e400) is already refused by the schema, with the reason.
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    const bad = value < 0 || (unit && value > 1);
    if (bad) {
      const at = [...path, bound];
      ctx.diagnostics.push(
        located(
          ctx.file,
          ctx.locate(at),
          at,
          `${value} is out of range for ${metric}`,
          unit ? 'a number in [0, 1]' : 'a number >= 0',
        ),
      );
    }
  }
}

export { isRecord };
