import { compileUserRegex } from '../util/regex-flags.ts';
import { analyzeRegex } from '../util/regex-safety.ts';

// Zod-free, so the v0 dataset rules (CLI start-up) use it too.

export interface PatternProblem {
  readonly message: string;
  readonly expected: string;
  /** The lint rule a refusal for safety falls under; a syntax error has none. */
  readonly code?: 'regex-catastrophic';
}

const SAFE_PATTERN = 'a pattern that cannot backtrack catastrophically';

/**
 * The rule for a pattern the `regex` evaluator will compile (a `pattern` option, a test's `expected`,
 * a v0 case's regex `expected_output`): it must compile and must not backtrack catastrophically.
 */
export function patternProblem(pattern: string, flags: string): PatternProblem | undefined {
  try {
    compileUserRegex(pattern, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      message: `regex does not compile: ${reason}`,
      expected: 'a valid regular expression',
    };
  }
  const safety = analyzeRegex(pattern, flags);
  if (safety.safe) return undefined;
  return {
    message: `regex /${pattern}/ is refused: ${safety.reason ?? 'it can backtrack catastrophically'}`,
    expected: SAFE_PATTERN,
    code: 'regex-catastrophic',
  };
}
