import type { z } from 'zod';
import { HarnessEvalError } from '../core/errors.ts';
import { type BuiltinEvaluatorName, evaluatorOptionSchemas as schemas } from './catalog.ts';
import type { EvaluatorDefinition } from './types.ts';

export interface BuiltinEvaluatorEntry<S extends z.ZodType> {
  readonly options: S;
  readonly description: string;
  readonly load: () => Promise<EvaluatorDefinition<S>>;
}

type Schemas = typeof schemas;

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
    options: schemas.exact_match,
    description: 'output equals the expected value (text, or deep equality for data)',
    load: async () => (await import('./exact-match.ts')).exactMatch,
  },
  contains: {
    options: schemas.contains,
    description: 'output contains a substring, or all / any of several',
    load: async () => (await import('./contains.ts')).contains,
  },
  icontains: {
    options: schemas.icontains,
    description: 'output contains a substring, ignoring case',
    load: async () => (await import('./icontains.ts')).icontains,
  },
  regex: {
    options: schemas.regex,
    description: 'output matches a regular expression',
    load: async () => (await import('./regex.ts')).regex,
  },
  jsonpath: {
    options: schemas.jsonpath,
    description: 'a JSONPath (RFC 9535) exists in the output, or selects the expected value',
    load: async () => (await import('./jsonpath.ts')).jsonpath,
  },
  json_schema: {
    options: schemas.json_schema,
    description: 'output validates against a JSON Schema',
    load: async () => (await import('./json-schema.ts')).jsonSchema,
  },
  fuzzy_match: {
    options: schemas.fuzzy_match,
    description: 'output is similar to the expected text (Sørensen–Dice on bigrams)',
    load: async () => (await import('./fuzzy-match.ts')).fuzzyMatch,
  },
  levenshtein: {
    options: schemas.levenshtein,
    description: 'edit distance to the expected text within bounds',
    load: async () => (await import('./levenshtein.ts')).levenshtein,
  },
  tool_called: {
    options: schemas.tool_called,
    description: 'required tools were called, forbidden ones were not',
    load: async () => (await import('./tool-called.ts')).toolCalled,
  },
  tool_args: {
    options: schemas.tool_args,
    description: 'a call of the tool had the expected arguments',
    load: async () => (await import('./tool-args.ts')).toolArgs,
  },
  trajectory: {
    options: schemas.trajectory,
    description: 'the sequence of tool calls matches the expected one',
    load: async () => (await import('./trajectory.ts')).trajectory,
  },
  text_length: {
    options: schemas.text_length,
    description: 'the text (or each text of a field) has between min and max words, characters or sentences',
    load: async () => (await import('./text-length.ts')).textLength,
  },
  reading_level: {
    options: schemas.reading_level,
    description: 'the text reads at or below a Flesch-Kincaid grade, or at or above a Flesch reading ease',
    load: async () => (await import('./reading-level.ts')).readingLevel,
  },
  links: {
    options: schemas.links,
    description: 'required links are present, and every link is on an allowed host (https only on request)',
    load: async () => (await import('./links.ts')).links,
  },
  latency: {
    options: schemas.latency,
    description: 'the agent answered within max_seconds',
    load: async () => (await import('./latency.ts')).latency,
  },
  cost: {
    options: schemas.cost,
    description: 'the trial cost at most max_usd',
    load: async () => (await import('./cost.ts')).cost,
  },
  expect_error: {
    options: schemas.expect_error,
    description: 'the trial ends in the expected error (kind, message): a refusal that should happen passes',
    load: async () => (await import('./expect-error.ts')).expectError,
  },
  javascript: {
    options: schemas.javascript,
    description: 'a user TypeScript/JavaScript function scores the output',
    load: async () => (await import('./javascript.ts')).javascript,
  },
  command: {
    options: schemas.command,
    description: 'a command run in the trial workspace exits with status 0',
    load: async () => (await import('./command.ts')).command,
  },
  harbor_verifier: {
    options: schemas.harbor_verifier,
    description: "a Harbor task's tests/test.sh, run in the sandbox after the agent; its reward is the score",
    load: async () => (await import('./harbor-verifier.ts')).harborVerifier,
  },
  llm_rubric: {
    options: schemas.llm_rubric,
    description: 'a judge model grades the output against a rubric (a rubric criterion of each task)',
    load: gradedLater('llm_rubric'),
  },
  human: {
    options: schemas.human,
    description: 'a person grades the output later with `harnesseval grade` (pending until then)',
    load: gradedLater('human'),
  },
} as const satisfies { readonly [N in BuiltinEvaluatorName]: BuiltinEvaluatorEntry<Schemas[N]> };
