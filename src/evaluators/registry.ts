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

/**
 * `llm_rubric` and `human` grade after the trial, so they are criteria, not per-trial checks: a
 * suite converts them (core/graded-evaluators.ts) before any evaluator is created. Only a direct
 * `createEvaluator` call reaches this.
 */
function gradedLater(name: string): () => Promise<never> {
  return () =>
    Promise.reject(
      new HarnessEvalError(
        'invalid_config',
        `${name} is graded after the trial, as a ${name === 'human' ? 'human' : 'rubric'} criterion of each task: name it in a suite's evaluators (runExperiment and the CLI convert it), not through createEvaluator`,
      ),
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
  text_length: {
    options: evaluatorOptionSchemas.text_length,
    description: 'the text (or each text of a field) has between min and max words, characters or sentences',
    load: async () => (await import('./text-length.ts')).textLength,
  },
  reading_level: {
    options: evaluatorOptionSchemas.reading_level,
    description: 'the text reads at or below a Flesch-Kincaid grade, or at or above a Flesch reading ease',
    load: async () => (await import('./reading-level.ts')).readingLevel,
  },
  links: {
    options: evaluatorOptionSchemas.links,
    description: 'required links are present, and every link is on an allowed host (https only on request)',
    load: async () => (await import('./links.ts')).links,
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
  expect_error: {
    options: evaluatorOptionSchemas.expect_error,
    description: 'the trial ends in the expected error (kind, message): a refusal that should happen passes',
    load: async () => (await import('./expect-error.ts')).expectError,
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
    description: 'a judge model grades the output against a rubric (a rubric criterion of each task)',
    load: gradedLater('llm_rubric'),
  },
  human: {
    options: evaluatorOptionSchemas.human,
    description: 'a person grades the output later with `harnesseval grade` (pending until then)',
    load: gradedLater('human'),
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
  const created = await definition.create(parsed.data, environment);
  // The definition declares it; the instance carries it so the runner sees it after wrapping.
  return definition.judgesErrors === true && created.judgesErrors !== true
    ? { ...created, judgesErrors: true, evaluate: (ctx) => created.evaluate(ctx) }
    : created;
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
