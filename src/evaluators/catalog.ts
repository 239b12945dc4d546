import { z } from 'zod';
import { ErrorKindSchema } from '../core/agent-output.ts';
import { CommandSchema } from '../core/task.ts';

/**
 * Names and option schemas of the built-in evaluators. Kept apart from the implementations so
 * that loading and validating a file never imports an evaluator's dependencies.
 */
const text = z.string();
const expectedOverride = z.unknown().optional();
/** A key of the JSON output (dots for nested keys) whose text, or list of texts, is checked. */
const field = text.regex(/^[^.]+(\.[^.]+)*$/, 'keys joined by dots, e.g. "body" or "cta.href"').optional();
const bound = z.number().int().nonnegative().optional();

export const evaluatorOptionSchemas = {
  exact_match: z
    .object({
      /** Defaults to the task's `expected`. */
      expected: expectedOverride,
      trim: z.boolean().default(true),
      ignore_case: z.boolean().default(false),
    })
    .strict(),
  contains: z
    .object({
      substring: text.optional(),
      substrings: z.array(text).min(1).optional(),
      mode: z.enum(['all', 'any']).default('all'),
      ignore_case: z.boolean().default(false),
    })
    .strict(),
  icontains: z
    .object({
      substring: text.optional(),
      substrings: z.array(text).min(1).optional(),
      mode: z.enum(['all', 'any']).default('all'),
    })
    .strict(),
  regex: z
    .object({
      /** Defaults to the task's `expected`. A leading `(?i)`, `(?s)` or `(?m)` becomes a flag. */
      pattern: text.optional(),
      flags: z
        .string()
        .regex(/^[imsu]*$/, 'flags may only contain i, m, s, u')
        .default(''),
      /** Match against the structured output (JSON) instead of the text. */
      target: z.enum(['text', 'structured']).default('text'),
    })
    .strict(),
  jsonpath: z
    .object({
      path: text,
      /** When given, the first node's value must deep-equal this; otherwise the path must exist. */
      value: z.unknown().optional(),
      target: z.enum(['auto', 'structured', 'output']).default('auto'),
    })
    .strict(),
  json_schema: z
    .object({
      /** An inline JSON Schema, or a path (relative to the suite file) to one. */
      schema: z.union([z.record(z.string(), z.unknown()), text]),
    })
    .strict(),
  fuzzy_match: z
    .object({
      expected: text.optional(),
      threshold: z.number().min(0).max(1).default(0.8),
      ignore_case: z.boolean().default(true),
    })
    .strict(),
  levenshtein: z
    .object({
      expected: text.optional(),
      /** Pass when the edit distance is at most this. */
      max_distance: z.number().int().nonnegative().optional(),
      /** Pass when 1 - distance / max(len) is at least this (default 0.8 without max_distance). */
      threshold: z.number().min(0).max(1).optional(),
    })
    .strict(),
  tool_called: z
    .object({
      tool: text.optional(),
      required: z.array(text).default([]),
      forbidden: z.array(text).default([]),
      min_calls: z.number().int().nonnegative().optional(),
      max_calls: z.number().int().nonnegative().optional(),
    })
    .strict(),
  tool_args: z
    .object({
      tool: text,
      arguments: z.record(z.string(), z.unknown()),
      mode: z.enum(['exact', 'subset', 'superset']).default('subset'),
    })
    .strict(),
  trajectory: z
    .object({
      expected: z.array(text).min(1),
      mode: z.enum(['strict', 'unordered', 'subset', 'superset']).default('strict'),
    })
    .strict(),
  text_length: z
    .object({
      unit: z.enum(['words', 'characters', 'sentences']).default('words'),
      min: bound,
      max: bound,
      field,
    })
    .strict()
    .refine((o) => o.min !== undefined || o.max !== undefined, { message: 'give min, max or both' })
    .refine((o) => o.min === undefined || o.max === undefined || o.min <= o.max, {
      message: 'min must not be above max',
    }),
  reading_level: z
    .object({
      /** Highest Flesch-Kincaid grade level allowed (US school grade; 8 is plain English). */
      max_grade: z.number().optional(),
      /** Lowest Flesch reading ease allowed (0-100, higher is easier; 60 is plain English). */
      min_ease: z.number().optional(),
      field,
    })
    .strict()
    .refine((o) => o.max_grade !== undefined || o.min_ease !== undefined, {
      message: 'give max_grade, min_ease or both',
    }),
  links: z
    .object({
      /** Links that must appear, compared as written (query string included). */
      required: z.array(z.string().url()).default([]),
      /** Hosts every link must be on (a subdomain of one counts); any host when absent. */
      allowed_hosts: z.array(text.min(1)).optional(),
      https_only: z.boolean().default(false),
      min: bound,
      max: bound,
      field,
    })
    .strict(),
  latency: z.object({ max_seconds: z.number().positive() }).strict(),
  cost: z.object({ max_usd: z.number().nonnegative() }).strict(),
  expect_error: z
    .object({
      /** The error kind(s) that pass, e.g. `tool_invalid_args`; any answer error when absent. */
      kind: z.union([ErrorKindSchema, z.array(ErrorKindSchema).min(1)]).optional(),
      /** Text the error message must contain. */
      message: text.optional(),
      /** A regular expression the error message must match (checked like the regex evaluator's). */
      pattern: text.optional(),
    })
    .strict(),
  javascript: z
    .object({
      /** `./path/to/file.ts#exportName` relative to the suite file. */
      module: text.regex(/^[^#]+(#[A-Za-z_$][\w$]*)?$/, 'expected "path/to/file.ts#exportName"'),
      options: z.record(z.string(), z.unknown()).default({}),
    })
    .strict(),
  command: z
    .object({
      command: z.union([CommandSchema, text.min(1)]),
      timeout_seconds: z.number().positive().default(120),
    })
    .strict(),
  harbor_verifier: z
    .object({
      /** Host folders copied to /tests, in order (a later one overrides same-named files). */
      tests_dirs: z.array(text.min(1)).min(1),
      /** The test script inside /tests. */
      script: text.min(1).default('test.sh'),
      /** Where the script runs inside the sandbox (Harbor's workdir). */
      workdir: text.startsWith('/').default('/app'),
      timeout_seconds: z.number().positive().default(600),
      /** `[verifier].env`; values may reference `${VAR}` or `${VAR:-default}` of HarnessEval's environment. */
      env: z.record(z.string(), text).default({}),
    })
    .strict(),
  llm_rubric: z
    .object({
      /** Rubric file (relative to the suite) or the id of a rubric loaded with the suite. */
      rubric: text.optional(),
      dimensions: z.array(text).optional(),
      judge: z
        .object({
          provider: z.enum(['openai', 'anthropic', 'openai-compatible']).default('openai-compatible'),
          model: text,
          base_url: text.optional(),
          /** Name of the environment variable that holds the API key (never the key itself). */
          api_key_env: text.optional(),
        })
        .strict()
        .optional(),
      samples: z.number().int().positive().max(20).default(1),
      allow_self_judge: z.boolean().default(false),
    })
    .strict(),
  human: z
    .object({
      /** What the person checks; shown when grading. */
      instructions: text.optional(),
      /** Rubric file (relative to the suite) or rubric id; without one, "meets the instructions" 1-4. */
      rubric: text.optional(),
    })
    .strict(),
} as const;

export type BuiltinEvaluatorName = keyof typeof evaluatorOptionSchemas;
export type EvaluatorOptions<N extends BuiltinEvaluatorName> = z.infer<(typeof evaluatorOptionSchemas)[N]>;

export const builtinEvaluatorNames = Object.keys(evaluatorOptionSchemas) as BuiltinEvaluatorName[];

export function isBuiltinEvaluator(name: string): name is BuiltinEvaluatorName {
  return Object.hasOwn(evaluatorOptionSchemas, name);
}
