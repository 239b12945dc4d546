import parseJsonPath from 'jsonpath-rfc9535/parser';
import { translateInlineFlags } from '../util/regex-flags.ts';
import { analyzeRegex, jsonPathRegexProblem, jsonSchemaRegexProblem } from '../util/regex-safety.ts';

/** A built-in evaluator option holding a pattern that the run would refuse. */
export interface PatternOptionProblem {
  readonly option: string;
  readonly message: string;
  readonly expected: string;
}

const EXPECTED = 'a pattern that cannot backtrack catastrophically';

/**
 * The pattern rules of the built-in evaluators, checked when a file loads (validate, lint, run)
 * with the same analysis the evaluators apply when they are created: a `regex` pattern, the
 * `match()`/`search()` patterns of a `jsonpath`, and the `pattern`s of an inline `json_schema`.
 */
export function patternOptionProblem(
  evaluator: string,
  options: Record<string, unknown>,
): PatternOptionProblem | undefined {
  switch (evaluator) {
    case 'regex': {
      const pattern = options['pattern'];
      if (typeof pattern !== 'string') return undefined;
      const t = translateInlineFlags(pattern, typeof options['flags'] === 'string' ? options['flags'] : '');
      const safety = analyzeRegex(t.source, t.flags);
      return safety.safe
        ? undefined
        : {
            option: 'pattern',
            message: `regex /${pattern}/ is refused: ${safety.reason}`,
            expected: EXPECTED,
          };
    }
    case 'jsonpath': {
      const path = options['path'];
      if (typeof path !== 'string') return undefined;
      let ast: unknown;
      try {
        ast = parseJsonPath(path);
      } catch (error) {
        const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
        return { option: 'path', message: `invalid JSONPath: ${message}`, expected: 'an RFC 9535 JSONPath' };
      }
      const problem = jsonPathRegexProblem(ast);
      if (problem === undefined) return undefined;
      const shown = problem.pattern === '' ? '' : ` /${problem.pattern}/`;
      return {
        option: 'path',
        message: `${problem.where} pattern${shown} is refused: ${problem.reason}`,
        expected: problem.pattern === '' ? 'a literal pattern' : EXPECTED,
      };
    }
    case 'json_schema': {
      const problem = jsonSchemaRegexProblem(options['schema']);
      return problem === undefined
        ? undefined
        : {
            option: 'schema',
            message: `pattern /${problem.pattern}/ at ${problem.where} is refused: ${problem.reason}`,
            expected: EXPECTED,
          };
    }
    default:
      return undefined;
  }
}
