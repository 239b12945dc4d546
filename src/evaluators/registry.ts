import type { z } from 'zod';
import { HarnessEvalError, type Result } from '../core/errors.ts';
import { type EvaluatorRef, EvaluatorRefSchema } from '../core/plugin-ref.ts';
import type { Task } from '../core/task.ts';
import { alreadyRegistered, declarePlugin } from '../plugins/known.ts';
import { didYouMean } from '../util/suggest.ts';
import { type BuiltinEvaluatorName, evaluatorOptionSchemas } from './catalog.ts';
import { withCommonBehaviour } from './result.ts';
import type { EvaluatorDefinition, EvaluatorEnvironment, EvaluatorV1 } from './types.ts';

export interface BuiltinEvaluatorEntry<S extends z.ZodType> {
  readonly options: S;
  readonly description: string;
  readonly load: () => Promise<EvaluatorDefinition<S>>;
}

type Schemas = typeof evaluatorOptionSchemas;

function later(name: string): () => Promise<never> {
  return () =>
    Promise.reject(
      new HarnessEvalError('invalid_config', `the ${name} evaluator is not available in this version yet`),
    );
}

/** Every built-in evaluator: its option schema (cheap) and a lazy import of its implementation. */
export const builtinEvaluators = {
  exact_match: {
    options: evaluatorOptionSchemas.exact_match,
    description: 'output equals the expected value (text, or deep equality for data)',
    load: async () => (await import('./exact-match.ts')).exactMatch,
  },
  contains: {
    options: evaluatorOptionSchemas.contains,
    description: 'output contains a substring, or all / any of several',
    load: async () => (await import('./contains.ts')).contains,
  },
  icontains: {
    options: evaluatorOptionSchemas.icontains,
    description: 'output contains a substring, ignoring case',
    load: async () => (await import('./icontains.ts')).icontains,
  },
  regex: {
    options: evaluatorOptionSchemas.regex,
    description: 'output matches a regular expression',
    load: async () => (await import('./regex.ts')).regex,
  },
  jsonpath: {
    options: evaluatorOptionSchemas.jsonpath,
    description: 'a JSONPath (RFC 9535) exists in the output, or selects the expected value',
    load: async () => (await import('./jsonpath.ts')).jsonpath,
  },
  json_schema: {
    options: evaluatorOptionSchemas.json_schema,
    description: 'output validates against a JSON Schema',
    load: async () => (await import('./json-schema.ts')).jsonSchema,
  },
  fuzzy_match: {
    options: evaluatorOptionSchemas.fuzzy_match,
    description: 'output is similar to the expected text (Sørensen–Dice on bigrams)',
    load: async () => (await import('./fuzzy-match.ts')).fuzzyMatch,
  },
  levenshtein: {
    options: evaluatorOptionSchemas.levenshtein,
    description: 'edit distance to the expected text within bounds',
    load: async () => (await import('./levenshtein.ts')).levenshtein,
  },
  tool_called: {
    options: evaluatorOptionSchemas.tool_called,
    description: 'required tools were called, forbidden ones were not',
    load: async () => (await import('./tool-called.ts')).toolCalled,
  },
  tool_args: {
    options: evaluatorOptionSchemas.tool_args,
    description: 'a call of the tool had the expected arguments',
    load: async () => (await import('./tool-args.ts')).toolArgs,
  },
  trajectory: {
    options: evaluatorOptionSchemas.trajectory,
    description: 'the sequence of tool calls matches the expected one',
    load: async () => (await import('./trajectory.ts')).trajectory,
  },
  latency: {
    options: evaluatorOptionSchemas.latency,
    description: 'the agent answered within max_seconds',
    load: async () => (await import('./latency.ts')).latency,
  },
  cost: {
    options: evaluatorOptionSchemas.cost,
    description: 'the trial cost at most max_usd',
    load: async () => (await import('./cost.ts')).cost,
  },
  javascript: {
    options: evaluatorOptionSchemas.javascript,
    description: 'a user TypeScript/JavaScript function scores the output',
    load: async () => (await import('./javascript.ts')).javascript,
  },
  command: {
    options: evaluatorOptionSchemas.command,
    description: 'a command run in the trial workspace exits with status 0',
    load: async () => (await import('./command.ts')).command,
  },
  harbor_verifier: {
    options: evaluatorOptionSchemas.harbor_verifier,
    description: "a Harbor task's tests/test.sh, run in the sandbox after the agent; its reward is the score",
    load: async () => (await import('./harbor-verifier.ts')).harborVerifier,
  },
  llm_rubric: {
    options: evaluatorOptionSchemas.llm_rubric,
    description: 'a judge model grades the output against a rubric',
    load: later('llm_rubric'),
  },
  human: {
    options: evaluatorOptionSchemas.human,
    description: 'a person grades the output later',
    load: later('human'),
  },
} as const satisfies { readonly [N in BuiltinEvaluatorName]: BuiltinEvaluatorEntry<Schemas[N]> };

const userEvaluators = new Map<string, EvaluatorDefinition>();

function isBuiltin(name: string): name is BuiltinEvaluatorName {
  return Object.hasOwn(builtinEvaluators, name);
}

/** Every evaluator name known now: built-ins and registered plugins. */
export function evaluatorNames(): string[] {
  return [...Object.keys(builtinEvaluators), ...userEvaluators.keys()];
}

/**
 * Adds a user evaluator; returns a function that removes it again. Built-in names cannot be replaced.
 * @example registerEvaluator({ name: 'polite', description: '…', options: z.object({}), create: () => myEvaluator })
 */
export function registerEvaluator<S extends z.ZodType>(definition: EvaluatorDefinition<S>): () => void {
  if (isBuiltin(definition.name)) {
    throw new HarnessEvalError(
      'invalid_config',
      `cannot register "${definition.name}": a built-in evaluator has that name`,
    );
  }
  const stored: EvaluatorDefinition = definition;
  const existing = userEvaluators.get(definition.name);
  // The same definition again (a plugin module loaded twice) is a no-op; another one is refused.
  if (existing !== undefined && existing !== stored) throw alreadyRegistered('evaluator', definition.name);
  userEvaluators.set(definition.name, stored);
  const undeclare = declarePlugin('evaluator', definition.name, definition.options);
  return () => {
    if (userEvaluators.get(definition.name) === stored) userEvaluators.delete(definition.name);
    undeclare();
  };
}

function unknownEvaluator(name: string): HarnessEvalError {
  return new HarnessEvalError(
    'invalid_config',
    `unknown evaluator "${name}"${didYouMean(name, evaluatorNames())}`,
    {
      data: { evaluator: name },
    },
  );
}

function optionsError(name: string, error: z.ZodError): HarnessEvalError {
  const issues = error.issues.map((issue) => {
    const path = ['options', ...issue.path.map(String)].join('.');
    return `${path}: ${issue.message}`;
  });
  return new HarnessEvalError('invalid_config', `evaluator "${name}": ${issues.join('; ')}`, {
    cause: error,
    data: { evaluator: name, issues },
  });
}

function schemaFor(name: string): z.ZodType | undefined {
  if (isBuiltin(name)) return builtinEvaluators[name].options;
  return userEvaluators.get(name)?.options;
}

/**
 * Checks a reference's name and options without loading the implementation (for `validate`/`lint`).
 * Returns the options with their defaults.
 */
export function safeCheckEvaluatorRef(ref: EvaluatorRef): Result<unknown> {
  const schema = schemaFor(ref.name);
  if (schema === undefined) return { ok: false, error: unknownEvaluator(ref.name) };
  const parsed = schema.safeParse(ref.options);
  if (!parsed.success) return { ok: false, error: optionsError(ref.name, parsed.error) };
  return { ok: true, value: parsed.data };
}

async function definitionFor(name: string): Promise<EvaluatorDefinition> {
  if (isBuiltin(name)) return builtinEvaluators[name].load();
  const user = userEvaluators.get(name);
  if (user === undefined) throw unknownEvaluator(name);
  return user;
}

async function instantiate<S extends z.ZodType>(
  definition: EvaluatorDefinition<S>,
  rawOptions: Record<string, unknown>,
  environment: EvaluatorEnvironment,
): Promise<EvaluatorV1> {
  const parsed = definition.options.safeParse(rawOptions);
  if (!parsed.success) throw optionsError(definition.name, parsed.error);
  return definition.create(parsed.data, environment);
}

/**
 * Builds a ready evaluator from a reference: options parsed with the evaluator's schema, compiled
 * once, wrapped with the common rules (errored output, negate, clamping, label).
 * @throws HarnessEvalError('invalid_config') for an unknown name ("did you mean …") or bad options
 */
export async function createEvaluator(
  ref: EvaluatorRef,
  environment: EvaluatorEnvironment,
): Promise<EvaluatorV1> {
  const full = EvaluatorRefSchema.parse(ref);
  const definition = await definitionFor(full.name);
  const inner = await instantiate(definition, full.options, environment);
  return withCommonBehaviour(inner, { label: full.label ?? full.name, negate: full.negate });
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
