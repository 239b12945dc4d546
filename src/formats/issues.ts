import type { z } from 'zod';
import { type Diagnostic, type FieldPath, formatPath } from '../core/diagnostic.ts';

// The path format lives in core (zod-free) so the store's JSON reader prints the same paths.
export { type FieldPath, formatPath } from '../core/diagnostic.ts';

/** 1-based position of a node in a file. */
export interface Position {
  readonly line: number;
  readonly col: number;
}

/** Maps a field path to where it is written; for a missing key, where its parent is. */
export type Locate = (path: FieldPath) => Position;

/** The most diagnostics one file reports before the loader stops. */
export const MAX_DIAGNOSTICS = 50;

function show(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function bound(origin: string, inclusive: boolean | undefined, op: '>' | '<', n: number | bigint): string {
  if (origin === 'string') return op === '>' ? `at least ${n} character(s)` : `at most ${n} character(s)`;
  if (origin === 'array' || origin === 'set')
    return op === '>' ? `at least ${n} item(s)` : `at most ${n} item(s)`;
  return `a number ${op}${inclusive === false ? '' : '='} ${n}`;
}

/** One zod issue as a message and what was expected, in the words every command uses. */
export function describeIssue(issue: z.core.$ZodIssue): { message: string; expected?: string } {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return { message: 'required field is missing', expected: issue.expected };
      // YAML reads 1e400 as Infinity: a number to the eye, so "wrong type number" made no sense.
      if (typeof input === 'number' && !Number.isFinite(input))
        return {
          message: `${input} is not a finite number (a literal such as 1e400 is too large and reads as Infinity)`,
          expected: `a finite ${issue.expected}`,
        };
      return { message: `wrong type ${typeOf(input)}`, expected: issue.expected };
    case 'invalid_value':
      if (input === undefined)
        return { message: 'required field is missing', expected: issue.values.map(show).join(' | ') };
      return { message: `invalid value ${show(input)}`, expected: issue.values.map(show).join(' | ') };
    case 'invalid_format':
      if (issue.format === 'regex' && 'pattern' in issue && typeof issue.pattern === 'string')
        return {
          message: `invalid value ${show(input)}`,
          expected: `a string matching ${issue.pattern.slice(1, -1)}`,
        };
      return { message: `invalid value ${show(input)}`, expected: `a valid ${issue.format}` };
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1)
        return { message: 'must not be empty', expected: 'a non-empty string' };
      return {
        message: `${show(input)} is too small`,
        expected: bound(issue.origin, issue.inclusive, '>', issue.minimum),
      };
    case 'too_big':
      return {
        message: `${show(input)} is too big`,
        expected: bound(issue.origin, issue.inclusive, '<', issue.maximum),
      };
    case 'unrecognized_keys':
      return { message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}` };
    case 'invalid_union': {
      // When the value has the type of one shape (a string where a string or an object is
      // allowed), what that shape wanted is the useful answer.
      const sameType = issue.errors.find(
        (errors) =>
          errors.length > 0 && !errors.some((e) => e.code === 'invalid_type' && e.path.length === 0),
      );
      const first = sameType?.[0];
      if (first !== undefined && first.path.length === 0) return describeIssue({ ...first, input } as never);
      return { message: `invalid value ${show(input)}`, expected: 'one of the allowed shapes' };
    }
    case 'not_multiple_of':
      return { message: `${show(input)} is not a multiple of ${issue.divisor}` };
    default:
      return { message: issue.message };
  }
}

/** Converts zod issues into located diagnostics; unknown keys are reported one by one at the key. */
export function issuesToDiagnostics(
  issues: readonly z.core.$ZodIssue[],
  file: string,
  locate: Locate,
  prefix: FieldPath = [],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues) {
    const base = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...base, key];
        out.push(located(file, locate(path), path, `unknown field "${key}"`, 'one of the documented fields'));
      }
      continue;
    }
    const { message, expected } = describeIssue(issue);
    out.push(located(file, locate(base), base, message, expected));
  }
  return out;
}

export function located(
  file: string,
  pos: Position,
  path: FieldPath,
  message: string,
  expected?: string,
): Diagnostic {
  const d: Diagnostic = {
    file,
    line: pos.line,
    col: pos.col,
    path: formatPath(path),
    message,
    severity: 'error',
  };
  return expected === undefined ? d : { ...d, expected };
}

/** Keeps at most MAX_DIAGNOSTICS, saying how many more there were. */
export function capDiagnostics(diagnostics: readonly Diagnostic[], file: string): Diagnostic[] {
  if (diagnostics.length <= MAX_DIAGNOSTICS) return [...diagnostics];
  const kept = diagnostics.slice(0, MAX_DIAGNOSTICS);
  kept.push({
    file,
    line: 0,
    col: 0,
    path: '',
    message: `${diagnostics.length - MAX_DIAGNOSTICS} more error(s) not shown`,
    severity: 'error',
  });
  return kept;
}
