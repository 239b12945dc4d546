import type { z } from 'zod';
import type { Result } from '../core/errors.ts';
import { type EvaluatorRef, EvaluatorRefSchema } from '../core/plugin-ref.ts';
import type { Task } from '../core/task.ts';
import { definePluginKind, PluginRegistry } from '../plugins/kind.ts';
import {
  hasMethods,
  missingMethods,
  specificationVersionOf,
  unsupportedVersion,
} from '../plugins/version.ts';
import { builtinEvaluators } from './builtins.ts';
import { withCommonBehaviour } from './result.ts';
import type { EvaluatorDefinition, EvaluatorEnvironment, EvaluatorV1 } from './types.ts';

export { type BuiltinEvaluatorEntry, builtinEvaluators } from './builtins.ts';

/** The evaluator contract versions this HarnessEval runs. */
export const EVALUATOR_VERSIONS = ['v1'] as const;

/**
 * The seam of the evaluator contract: an instance of any supported version becomes an
 * `EvaluatorV1`. A future `EvaluatorV2` is adapted to v1 here, in one place.
 */
export function resolveEvaluator(instance: unknown, name: string): EvaluatorV1 {
  const version = specificationVersionOf(instance);
  switch (version) {
    case 'v1':
      if (hasMethods<EvaluatorV1>(instance, ['evaluate'])) return instance;
      throw missingMethods('evaluator', name, version, ['evaluate']);
    default:
      throw unsupportedVersion('evaluator', name, version, EVALUATOR_VERSIONS);
  }
}

export const evaluatorKind = definePluginKind<EvaluatorDefinition, EvaluatorV1, typeof builtinEvaluators>({
  kind: 'evaluator',
  builtins: builtinEvaluators,
  versions: EVALUATOR_VERSIONS,
  resolve: resolveEvaluator,
});

/** The evaluators of one plugin set: built-ins plus the plugins registered in it. */
export class EvaluatorRegistry extends PluginRegistry<
  EvaluatorDefinition,
  EvaluatorV1,
  typeof builtinEvaluators
> {
  constructor() {
    super(evaluatorKind);
  }

  /**
   * Checks a reference's name and options without loading the implementation (for `validate`/`lint`).
   * Returns the options with their defaults.
   */
  check(ref: EvaluatorRef): Result<unknown> {
    return this.safeCheck(ref.name, ref.options);
  }

  /**
   * Builds a ready evaluator from a reference: options parsed with the evaluator's schema, compiled
   * once, its version checked, wrapped with the common rules (errored output, negate, clamping, label).
   * @throws HarnessEvalError('invalid_config') for an unknown name ("did you mean …") or bad options
   */
  async create(ref: EvaluatorRef, environment: EvaluatorEnvironment): Promise<EvaluatorV1> {
    const full = EvaluatorRefSchema.parse(ref);
    const definition = await this.load(full.name);
    const parsed = definition.options.safeParse(full.options);
    if (!parsed.success) throw this.optionsError(definition.name, parsed.error);
    const created = this.resolve(await definition.create(parsed.data, environment), full.name);
    // The definition declares it; the instance carries it so the runner sees it after wrapping.
    const inner: EvaluatorV1 =
      definition.judgesErrors === true && created.judgesErrors !== true
        ? { ...created, judgesErrors: true, evaluate: (ctx) => created.evaluate(ctx) }
        : created;
    return withCommonBehaviour(inner, { label: full.label ?? full.name, negate: full.negate });
  }
}

/** The evaluators of the default plugin set (what `--plugin` and `registerEvaluator` add to). */
export const defaultEvaluatorRegistry = new EvaluatorRegistry();

/** Every evaluator name known now: built-ins and registered plugins. */
export function evaluatorNames(registry: EvaluatorRegistry = defaultEvaluatorRegistry): string[] {
  return registry.names();
}

/**
 * Adds a user evaluator; returns a function that removes it again. Built-in names cannot be
 * replaced, and a name another definition holds is refused (the same definition again is a no-op).
 * @example registerEvaluator({ name: 'polite', description: '…', options: z.object({}), create: () => myEvaluator })
 */
export function registerEvaluator<S extends z.ZodType>(
  definition: EvaluatorDefinition<S>,
  registry: EvaluatorRegistry = defaultEvaluatorRegistry,
): () => void {
  const stored: EvaluatorDefinition = definition;
  return registry.register(stored);
}

/**
 * Checks a reference's name and options without loading the implementation (for `validate`/`lint`).
 * Returns the options with their defaults.
 */
export function safeCheckEvaluatorRef(
  ref: EvaluatorRef,
  registry: EvaluatorRegistry = defaultEvaluatorRegistry,
): Result<unknown> {
  return registry.check(ref);
}

/**
 * Builds a ready evaluator from a reference (see `EvaluatorRegistry.create`).
 * @throws HarnessEvalError('invalid_config') for an unknown name ("did you mean …") or bad options
 */
export function createEvaluator(
  ref: EvaluatorRef,
  environment: EvaluatorEnvironment,
  registry: EvaluatorRegistry = defaultEvaluatorRegistry,
): Promise<EvaluatorV1> {
  return registry.create(ref, environment);
}

/** A task with `expected` and nothing else to judge it by is checked with `exact_match`. */
export function defaultEvaluatorsFor(task: Task): EvaluatorRef[] {
  const judged =
    task.evaluators.length > 0 ||
    task.criteria.some((c) => c.evaluator !== undefined || c.command !== undefined);
  if (judged || task.expected === undefined) return [];
  return [{ name: 'exact_match', options: {}, negate: false }];
}

/** The evaluators for one task: the suite's, then the task's own; the default when there are none. */
export function evaluatorsForTask(suiteRefs: readonly EvaluatorRef[], task: Task): EvaluatorRef[] {
  const refs = [...suiteRefs, ...task.evaluators];
  return refs.length > 0 ? refs : defaultEvaluatorsFor(task);
}
