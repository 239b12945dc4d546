import { dirname, resolve } from 'node:path';
import type { AdapterDefinition } from '../adapters/types.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { EvaluatorDefinition } from '../evaluators/types.ts';
import type { MetricDefinition } from '../metrics/types.ts';
import type { ReporterDefinition } from '../reporters/types.ts';
import { defaultPlugins, emptyPluginSet, type PluginSet } from './set.ts';
import { importUserModule } from './user-module.ts';

/** A reporter contributed by a plugin: a factory, since streaming reporters keep per-run state. */
export type PluginReporter = ReporterDefinition;

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

/**
 * Plugin modules loaded into each set, by absolute path. tsx gives every import of a TypeScript
 * file fresh definition objects, which the registries would refuse as a second plugin with the
 * same names; so a module named twice (`--plugin` and a file's `plugins:`) loads once per set.
 */
const loadedModules = new WeakMap<PluginSet, Map<string, Promise<string[]>>>();

/**
 * Imports a plugin module (TypeScript or JavaScript) and registers what it contributes in the
 * set (the default set unless one is given); once per path and set.
 */
export function loadPlugin(
  path: string,
  baseDir: string,
  plugins: PluginSet = defaultPlugins,
): Promise<string[]> {
  const absolute = resolve(baseDir, path);
  const loaded = loadedModules.get(plugins) ?? new Map<string, Promise<string[]>>();
  loadedModules.set(plugins, loaded);
  const known = loaded.get(absolute);
  if (known !== undefined) return known;
  const loading = registerPluginModule(absolute, plugins);
  loaded.set(absolute, loading);
  // A module that failed may be fixed and named again (a long-lived library process).
  loading.catch(() => loaded.delete(absolute));
  return loading;
}

async function registerPluginModule(path: string, plugins: PluginSet): Promise<string[]> {
  const exports = await importUserModule(path, dirname(path));
  const plugin = exports['default'] ?? exports['plugin'];
  if (!isObject(plugin)) {
    throw new HarnessEvalError(
      'invalid_config',
      `plugin ${path} must export a plugin object (export default definePlugin({...}))`,
    );
  }
  return registerPlugin(plugin, plugins, path);
}

/**
 * Registers a plugin object's definitions in a set (all or none: a refusal removes what it had
 * added). Returns what was registered (`evaluator word_limit`, …).
 * @example const plugins = emptyPluginSet(); registerPlugin(myPlugin, plugins); await runExperiment({ ..., plugins });
 */
export function registerPlugin(
  plugin: HarnessEvalPlugin | Record<string, unknown>,
  plugins: PluginSet = defaultPlugins,
  source = 'plugin',
): string[] {
  const value: Record<string, unknown> = { ...plugin };
  const steps: { label: string; register: () => () => void }[] = [
    ...listOf<EvaluatorDefinition>(value, 'evaluators', source, hasOptions).map((e) => ({
      label: `evaluator ${e.name}`,
      register: () => plugins.evaluators.register(e),
    })),
    ...listOf<MetricDefinition>(value, 'metrics', source, hasOptions).map((m) => ({
      label: `metric ${m.name}`,
      register: () => plugins.metrics.register(m),
    })),
    ...listOf<AdapterDefinition>(value, 'adapters', source, hasOptions).map((a) => ({
      label: `adapter ${a.name}`,
      register: () => plugins.adapters.register(a),
    })),
    ...listOf<PluginReporter>(value, 'reporters', source, hasNameAndCreate).map((r) => ({
      label: `reporter ${r.name}`,
      register: () =>
        plugins.reporters.register(
          r.description === undefined ? { ...r, description: `reporter from ${source}` } : r,
        ),
    })),
  ];
  const undo: (() => void)[] = [];
  try {
    for (const step of steps) undo.push(step.register());
  } catch (error) {
    for (const remove of undo.reverse()) remove();
    throw error;
  }
  return steps.map((s) => s.label);
}

/** A new plugin set with the built-ins and these plugins' definitions (the default set is untouched). */
export function createPluginSet(...contributed: readonly HarnessEvalPlugin[]): PluginSet {
  const plugins = emptyPluginSet();
  for (const plugin of contributed) registerPlugin(plugin, plugins);
  return plugins;
}
