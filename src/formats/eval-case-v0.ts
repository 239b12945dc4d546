import { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.ts';
import type { Criterion, Task } from '../core/task.ts';
import { DifficultySchema, SourceTypeSchema } from '../core/task.ts';
import {
  CASE_ID_PATTERN,
  EVAL_CASE_SCHEMA_VERSION,
  EXPECTED_OUTPUT_TYPES,
  expectedOutputProblem,
  isValidEvalCaseV0,
} from './eval-case-v0-rules.ts';
import { type DeepReadonly, deepFreeze } from './freeze.ts';
import { type FieldPath, issuesToDiagnostics, type Locate, located } from './issues.ts';
import { patternProblem } from './regex-rule.ts';

export {
  CASE_ID_PATTERN,
  EVAL_CASE_SCHEMA_VERSION,
  expectedOutputProblem,
  isValidEvalCaseV0,
  KNOWN_EVAL_CASE_VERSIONS,
} from './eval-case-v0-rules.ts';

export const ExpectedOutputTypeSchema = z.enum(EXPECTED_OUTPUT_TYPES);

/**
 * Seed 003 `EvalCase` v0, rule for rule. Beyond the seed: a regex must compile (a leading
 * `(?i)`-style group counts as flags) and a JSONPath must parse under RFC 9535.
 */
export const EvalCaseV0Schema = z
  .object({
    schema_version: z.literal(EVAL_CASE_SCHEMA_VERSION),
    case_id: z.string().regex(CASE_ID_PATTERN),
    prompt: z.string().min(1),
    tool_name: z.string(),
    expected_output_type: ExpectedOutputTypeSchema,
    expected_output: z.string().nullable().default(null),
    difficulty: DifficultySchema,
    provenance: z.object({ author: z.string(), source_type: SourceTypeSchema }).strict(),
    version: z.number().int().min(1),
    tags: z.array(z.string()).default([]),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.expected_output_type === 'exact') return;
    if (c.expected_output === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['expected_output'],
        message: `expected_output must not be null when expected_output_type is "${c.expected_output_type}"`,
      });
      return;
    }
    const problem = expectedOutputProblem(c.expected_output_type, c.expected_output);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['expected_output'], message: problem });
  });

export type EvalCaseV0 = DeepReadonly<z.infer<typeof EvalCaseV0Schema>>;
export type EvalCaseV0Input = z.input<typeof EvalCaseV0Schema>;

export type CaseResult =
  | { readonly ok: true; readonly value: EvalCaseV0 }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Where a record sits: the JSONL line, and the line's text to find a key's column in. */
export interface RecordLocation {
  readonly file: string;
  readonly line: number;
  readonly text?: string;
}

/** Column of the last key of `path` in a one-line JSON record (1 when it cannot be found cheaply). */
export function keyColumn(text: string | undefined, path: FieldPath): number {
  if (text === undefined) return 1;
  let from = 0;
  let col = 1;
  for (const key of path) {
    if (typeof key !== 'string') continue;
    const at = text.indexOf(`"${key}"`, from);
    if (at < 0) return col;
    col = at + 1;
    from = at + key.length + 2;
  }
  return col;
}

/** Validates one parsed JSON record; the value is deep-frozen. */
export function parseEvalCaseV0(value: unknown, where: RecordLocation): CaseResult {
  const result = validateRecord(value, where);
  return result.ok ? { ok: true, value: deepFreeze(result.value) } : result;
}

/** Only the verdict, for validation that throws the value away (no copy is frozen). */
export function checkEvalCaseV0(value: unknown, where: RecordLocation): readonly Diagnostic[] {
  const result = validateRecord(value, where);
  return result.ok ? [] : result.diagnostics;
}

function validateRecord(
  value: unknown,
  where: RecordLocation,
): { ok: true; value: z.infer<typeof EvalCaseV0Schema> } | { ok: false; diagnostics: readonly Diagnostic[] } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    return {
      ok: false,
      diagnostics: [
        located(where.file, { line: where.line, col: 1 }, [], `got ${got}`, 'a JSON object (an eval case)'),
      ],
    };
  }
  // Valid records (nearly all of them) skip zod: the rules module gives the same verdict.
  if (isValidEvalCaseV0(value)) return { ok: true, value: withDefaults(value as EvalCaseV0Input) };
  const result = EvalCaseV0Schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  const locate: Locate = (path) => ({ line: where.line, col: keyColumn(where.text, path) });
  const diagnostics = issuesToDiagnostics(result.error.issues, where.file, locate);
  const rule = regexRuleOf(value);
  return {
    ok: false,
    diagnostics:
      rule === undefined
        ? diagnostics
        : diagnostics.map((d) => (d.path === 'expected_output' ? { ...d, code: rule } : d)),
  };
}

/** The lint rule a regex `expected_output` is refused under (a pattern that can backtrack catastrophically). */
function regexRuleOf(value: object): string | undefined {
  const pattern = Reflect.get(value, 'expected_output');
  if (Reflect.get(value, 'expected_output_type') !== 'regex' || typeof pattern !== 'string') return undefined;
  return patternProblem(pattern, '')?.code;
}

/** The schema's output for a record the rules accepted: a fresh object, defaults filled in. */
function withDefaults(c: EvalCaseV0Input): z.infer<typeof EvalCaseV0Schema> {
  return {
    schema_version: c.schema_version,
    case_id: c.case_id,
    prompt: c.prompt,
    tool_name: c.tool_name,
    expected_output_type: c.expected_output_type,
    expected_output: c.expected_output ?? null,
    difficulty: c.difficulty,
    provenance: { author: c.provenance.author, source_type: c.provenance.source_type },
    version: c.version,
    tags: c.tags === undefined ? [] : [...c.tags],
  };
}

/**
 * The canonical Task of a case: the tool must be called (`tool-called`) and, unless the case is
 * an `exact` case with no expected output, the output must match (`expected-output`).
 */
export function evalCaseToTask(c: EvalCaseV0, where: RecordLocation): Task {
  const criteria: Criterion[] = [
    {
      id: 'tool-called',
      description: `the agent calls ${c.tool_name}`,
      type: 'functional',
      verification: 'automated',
      evaluator: { name: 'tool_called', options: { required: [c.tool_name] }, negate: false },
      weight: 1,
    },
  ];
  const output = expectedOutputCriterion(c);
  if (output !== undefined) criteria.push(output);
  return {
    id: c.case_id,
    input: c.prompt,
    ...(c.expected_output === null ? {} : { expected: c.expected_output }),
    criteria,
    evaluators: [],
    tags: [...c.tags],
    difficulty: c.difficulty,
    weight: 1,
    provenance: { author: c.provenance.author, source_type: c.provenance.source_type },
    files: {},
    metadata: {
      schema_version: c.schema_version,
      version: c.version,
      tool_name: c.tool_name,
      expected_output_type: c.expected_output_type,
    },
    source: { file: where.file, line: where.line },
  };
}

function expectedOutputCriterion(c: EvalCaseV0): Criterion | undefined {
  const expected = c.expected_output;
  if (expected === null) return undefined;
  const base = { id: 'expected-output', type: 'functional', verification: 'automated' as const, weight: 1 };
  switch (c.expected_output_type) {
    case 'exact':
      return {
        ...base,
        description: `the output is exactly ${JSON.stringify(expected)}`,
        evaluator: { name: 'exact_match', options: { expected }, negate: false },
      };
    case 'regex':
      return {
        ...base,
        description: `the output matches /${expected}/`,
        evaluator: { name: 'regex', options: { pattern: expected }, negate: false },
      };
    case 'jsonpath':
      return {
        ...base,
        description: `the structured output has ${expected}`,
        evaluator: { name: 'jsonpath', options: { path: expected }, negate: false },
      };
    default: {
      const never: never = c.expected_output_type;
      return never;
    }
  }
}
