import jsonPathParse from 'jsonpath-rfc9535/parser';
import type { Difficulty, SourceType } from '../core/task.ts';
import { jsonPathRegexProblem } from '../util/regex-safety.ts';
import { patternProblem } from './regex-rule.ts';

// The seed-003 rules without zod: `validate` of a dataset answers from these alone, so the CLI
// never loads zod for a valid file. `EvalCaseV0Schema` (eval-case-v0.ts) stays the definition
// and the source of every error message; a property test holds the two to the same verdicts.

/** The seed-003 schema version; the only one this schema accepts. */
export const EVAL_CASE_SCHEMA_VERSION = 'v0';
/** Every schema version of eval cases this release knows, oldest first. */
export const KNOWN_EVAL_CASE_VERSIONS = ['v0'] as const;

export const CASE_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{2,63}$/;

export const EXPECTED_OUTPUT_TYPES = ['exact', 'regex', 'jsonpath'] as const;
export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const satisfies readonly Difficulty[];
export const SOURCE_TYPES = [
  'hand_written',
  'synthetic',
  'adversarial',
] as const satisfies readonly SourceType[];

const CASE_KEYS = new Set([
  'schema_version',
  'case_id',
  'prompt',
  'tool_name',
  'expected_output_type',
  'expected_output',
  'difficulty',
  'provenance',
  'version',
  'tags',
]);

// Datasets repeat the same patterns and paths many times; remember recent verdicts (bounded).
const verdicts = new Map<string, string | undefined>();
const MAX_VERDICTS = 1024;

/** Why a regex or JSONPath expected output cannot be used, or undefined when it can. */
export function expectedOutputProblem(type: 'regex' | 'jsonpath', expected: string): string | undefined {
  const key = `${type}\u0000${expected}`;
  if (verdicts.has(key)) return verdicts.get(key);
  const verdict = checkExpectedOutput(type, expected);
  if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

/**
 * A subset of RFC 9535 that needs no parser: `$` then `.name` (ASCII), `.*`, `[*]` or `[index]`
 * segments, as datasets mostly write them. Every path it matches is valid; anything else goes to
 * the full parser, whose first calls cost several ms of a CLI start.
 */
const SIMPLE_JSONPATH = /^\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\.\*|\[\*\]|\[(?:0|-?[1-9][0-9]{0,14})\])*$/;

export function isSimpleJsonPath(path: string): boolean {
  return SIMPLE_JSONPATH.test(path);
}

function checkExpectedOutput(type: 'regex' | 'jsonpath', expected: string): string | undefined {
  if (type === 'regex') return patternProblem(expected, '')?.message;
  if (isSimpleJsonPath(expected)) return undefined;
  let ast: unknown;
  try {
    ast = jsonPathParse(expected);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return `JSONPath does not parse (RFC 9535): ${message}`;
  }
  // The same refusal the jsonpath evaluator makes when the run starts (one rule set).
  const problem = jsonPathRegexProblem(ast);
  if (problem === undefined) return undefined;
  const pattern = problem.pattern === '' ? '' : ` /${problem.pattern}/`;
  return `JSONPath ${problem.where} pattern${pattern} is refused: ${problem.reason}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function oneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

function hasOnlyKeys(value: Record<string, unknown>, keys: ReadonlySet<string>): boolean {
  for (const key of Object.keys(value)) if (!keys.has(key)) return false;
  return true;
}

const PROVENANCE_KEYS = new Set(['author', 'source_type']);

/**
 * True when `value` (parsed JSON) is a valid v0 eval case: exactly when `EvalCaseV0Schema`
 * accepts it. False says only "invalid"; the schema says why.
 */
export function isValidEvalCaseV0(value: unknown): value is Record<string, unknown> & { case_id: string } {
  if (!isPlainObject(value) || !hasOnlyKeys(value, CASE_KEYS)) return false;
  const { provenance, tags, version, expected_output: expected, expected_output_type: type } = value;
  if (
    value['schema_version'] !== EVAL_CASE_SCHEMA_VERSION ||
    typeof value['case_id'] !== 'string' ||
    !CASE_ID_PATTERN.test(value['case_id']) ||
    typeof value['prompt'] !== 'string' ||
    value['prompt'].length === 0 ||
    typeof value['tool_name'] !== 'string' ||
    !oneOf(EXPECTED_OUTPUT_TYPES, type) ||
    !(expected === undefined || expected === null || typeof expected === 'string') ||
    !oneOf(DIFFICULTIES, value['difficulty']) ||
    !isPlainObject(provenance) ||
    !hasOnlyKeys(provenance, PROVENANCE_KEYS) ||
    typeof provenance['author'] !== 'string' ||
    !oneOf(SOURCE_TYPES, provenance['source_type']) ||
    !(typeof version === 'number' && Number.isSafeInteger(version) && version >= 1) ||
    !(tags === undefined || (Array.isArray(tags) && tags.every((t) => typeof t === 'string')))
  )
    return false;
  if (type === 'exact') return true;
  return typeof expected === 'string' && expectedOutputProblem(type, expected) === undefined;
}
