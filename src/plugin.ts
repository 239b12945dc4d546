/**
 * `harnesseval/plugin`: what a plugin author needs to write an evaluator, a metric, an adapter or
 * a reporter in one file, without reaching into HarnessEval's sources. A plugin module exports
 * `definePlugin({ evaluators, metrics, adapters, reporters })` as its default export; the CLI
 * loads it with `--plugin FILE` or from a suite's or benchmark's `plugins:` list.
 *
 * @example
 * import { binary, defineEvaluator, definePlugin, optionsSchema, outputText, toResult, z } from 'harnesseval/plugin';
 * const wordLimit = defineEvaluator({
 *   name: 'word_limit',
 *   description: 'at most max_words words',
 *   options: optionsSchema({ max_words: z.number().int().positive() }),
 *   create: (opts) => ({
 *     specificationVersion: 'v1',
 *     name: 'word_limit',
 *     evaluate: async ({ output }) => {
 *       const words = outputText(output).split(/\s+/).filter(Boolean).length;
 *       return toResult('word_limit', binary(words <= opts.max_words, `${words} words`));
 *     },
 *   }),
 * });
 * export default definePlugin({ evaluators: [wordLimit] });
 */
import { z } from 'zod';
import type { AdapterDefinition } from './adapters/types.ts';
import type { EvaluatorDefinition } from './evaluators/types.ts';
import type { MetricDefinition } from './metrics/types.ts';
import type { PluginReporter } from './plugins/load.ts';

export { abortedOutput, failedOutput } from './adapters/agent-result.ts';
export type { FunctionAgentContext } from './adapters/function.ts';
export type { AdapterDefinition, AdapterEnvironment, AgentV1, TrialContext } from './adapters/types.ts';
export { type AgentOutput, type AgentOutputDraft, outputText } from './core/agent-output.ts';
export { HarnessEvalError } from './core/errors.ts';
export type { EvaluationResult } from './core/evaluation.ts';
export type { Direction, Experiment, MetricResult } from './core/experiment.ts';
export type { RunRecord } from './core/run-record.ts';
export type { Task, TaskInput } from './core/task.ts';
export { binary, cannotJudge, toResult, type Verdict } from './evaluators/result.ts';
export type { EvaluationContext, EvaluatorEnvironment, EvaluatorV1 } from './evaluators/types.ts';
export type { Harness, HarnessContext, HarnessResult } from './instrument/harness.ts';
export { emptyResult, type MetricShape, meanOverTasks, type TrialValue } from './metrics/aggregate.ts';
export { formatMetricValue, type MetricUnit } from './metrics/format.ts';
export type { MetricInput, MetricTask, MetricV1 } from './metrics/types.ts';
export { definePlugin, type HarnessEvalPlugin, type PluginReporter } from './plugins/load.ts';
export { deliver } from './reporters/destination.ts';
export type { ReporterV1, ReportOptions } from './reporters/types.ts';
export type { EvaluatorDefinition, MetricDefinition };
/** The zod HarnessEval checks options with, so a plugin needs no zod dependency of its own. */
export { z };

/**
 * An options schema that refuses unknown keys, so a typo in a file (`max_word:`) is a located
 * error at load time instead of a silently ignored option: `optionsSchema({ max_words: z.number() })`.
 */
export function optionsSchema<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape);
}

/** The schema of a plugin that takes no options: any key given is an error. */
export const noOptions = optionsSchema({});

/**
 * Types an evaluator definition (identity at run time): `options` is a zod schema, and `create`
 * receives the parsed options once per run and returns an `EvaluatorV1`. The registry wraps it
 * with the common rules (an errored output scores 0, `negate`, a throw becomes an error result).
 */
export function defineEvaluator<S extends z.ZodType>(
  definition: EvaluatorDefinition<S>,
): EvaluatorDefinition<S> {
  return definition;
}

/**
 * Types a metric definition (identity at run time). `calculate` must give `value: null` and
 * "n/a" for empty input; `meanOverTasks` and `emptyResult` do.
 */
export function defineMetric<S extends z.ZodType>(definition: MetricDefinition<S>): MetricDefinition<S> {
  return definition;
}

/**
 * Types an adapter definition (identity at run time). The agent's `run` never throws: a failure
 * is an output built with `failedOutput(kind, message)`, or `abortedOutput(signal)` on abort.
 */
export function defineAdapter<S extends z.ZodType>(definition: AdapterDefinition<S>): AdapterDefinition<S> {
  return definition;
}

/**
 * Types a reporter contributed by a plugin (identity at run time): a name, the file extensions
 * that select it for `-o FILE`, and `create()`, called once per report (reporters may keep state).
 */
export function defineReporter(reporter: PluginReporter): PluginReporter {
  return reporter;
}
