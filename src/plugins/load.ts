import { registerAdapter } from '../adapters/registry.ts';
import type { AdapterDefinition } from '../adapters/types.ts';
import { HarnessEvalError } from '../core/errors.ts';
import { registerEvaluator } from '../evaluators/registry.ts';
import type { EvaluatorDefinition } from '../evaluators/types.ts';
import { registerMetric } from '../metrics/registry.ts';
import type { MetricDefinition } from '../metrics/types.ts';
import { registerReporter } from '../reporters/registry.ts';
import type { ReporterV1 } from '../reporters/types.ts';
import { importUserModule } from './user-module.ts';

/** A reporter contributed by a plugin: a factory, since streaming reporters keep per-run state. */
export interface PluginReporter {
  readonly name: string;
  readonly extensions: readonly string[];
  readonly description?: string;
  create(): ReporterV1 | Promise<ReporterV1>;
}

/**
 * What a plugin module exports (as `default` or `plugin`): definitions that HarnessEval
 * registers in its own registries, so the names can be used in suite and benchmark files.
 */
export interface HarnessEvalPlugin {
  readonly evaluators?: readonly EvaluatorDefinition[];
  readonly metrics?: readonly MetricDefinition[];
  readonly adapters?: readonly AdapterDefinition[];
  readonly reporters?: readonly PluginReporter[];
}

/** Identity, for type checking a plugin module: `export default definePlugin({ evaluators: [...] })`. */
export function definePlugin(plugin: HarnessEvalPlugin): HarnessEvalPlugin {
  return plugin;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function listOf<T>(
  plugin: Record<string, unknown>,
  key: string,
  path: string,
  valid: (x: unknown) => x is T,
): T[] {
  const list = plugin[key];
  if (list === undefined) return [];
  if (!Array.isArray(list))
    throw new HarnessEvalError('invalid_config', `plugin ${path}: ${key} must be an array`);
  return list.map((item, i) => {
    if (!valid(item))
      throw new HarnessEvalError('invalid_config', `plugin ${path}: ${key}[${i}] is not a valid definition`);
    return item;
  });
}

function hasNameAndCreate<T>(x: unknown): x is T {
  return isObject(x) && typeof x['name'] === 'string' && typeof x['create'] === 'function';
}

function hasOptions<T>(x: unknown): x is T {
  return isObject(x) && hasNameAndCreate(x) && isObject(x['options']);
}

/** Imports a plugin module (TypeScript or JavaScript) and registers what it contributes. */
export async function loadPlugin(path: string, baseDir: string): Promise<string[]> {
  const exports = await importUserModule(path, baseDir);
  const plugin = exports['default'] ?? exports['plugin'];
  if (!isObject(plugin)) {
    throw new HarnessEvalError(
      'invalid_config',
      `plugin ${path} must export a plugin object (export default definePlugin({...}))`,
    );
  }
  const registered: string[] = [];
  for (const e of listOf<EvaluatorDefinition>(plugin, 'evaluators', path, hasOptions)) {
    registerEvaluator(e);
    registered.push(`evaluator ${e.name}`);
  }
  for (const m of listOf<MetricDefinition>(plugin, 'metrics', path, hasOptions)) {
    registerMetric(m);
    registered.push(`metric ${m.name}`);
  }
  for (const a of listOf<AdapterDefinition>(plugin, 'adapters', path, hasOptions)) {
    registerAdapter(a);
    registered.push(`adapter ${a.name}`);
  }
  for (const r of listOf<PluginReporter>(plugin, 'reporters', path, hasNameAndCreate)) {
    registerReporter(r.name, {
      load: async () => r.create(),
      extensions: r.extensions,
      description: r.description ?? `reporter from ${path}`,
    });
    registered.push(`reporter ${r.name}`);
  }
  return registered;
}
