import { HarnessEvalError } from '../core/errors.ts';
import { analyzeRegex } from '../util/regex-safety.ts';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary, cannotJudge, type Verdict } from './result.ts';
import { outputAsJson, outputText, preview } from './text.ts';
import { MATCH_TIME_LIMIT_MS, timedMatch, unansweredMatch } from './timed-match.ts';
import type { EvaluationContext, EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.regex;

/** Only the first MiB of an output is matched; larger outputs say so in the result. */
export const REGEX_INPUT_LIMIT = 1024 * 1024;
/** A match that takes longer than this is stopped (see match-pool.ts). */
export const REGEX_TIME_LIMIT_MS = MATCH_TIME_LIMIT_MS;

export interface CompiledPattern {
  readonly source: string;
  readonly flags: string;
}

const INLINE_FLAGS = /^\(\?([ims]+)\)/;

/**
 * Checks a pattern once: a leading `(?i)`, `(?s)`, `(?m)` (or a combination such as `(?im)`) becomes
 * JS flags; a syntax error or a pattern that can backtrack catastrophically is refused.
 * @throws HarnessEvalError('invalid_config')
 */
export function compilePattern(pattern: string, flags: string): CompiledPattern {
  const inline = INLINE_FLAGS.exec(pattern);
  const source = inline ? pattern.slice(inline[0].length) : pattern;
  const allFlags = [...new Set(`${flags}${inline?.[1] ?? ''}`)].sort().join('');
  try {
    new RegExp(source, allFlags);
  } catch (error) {
    throw new HarnessEvalError('invalid_config', `regex: invalid pattern /${pattern}/: ${String(error)}`, {
      cause: error,
      data: { pattern },
    });
  }
  const safety = analyzeRegex(source, allFlags);
  if (!safety.safe) {
    throw new HarnessEvalError(
      'invalid_config',
      `regex: pattern /${pattern}/ is refused: ${safety.reason ?? 'it can backtrack catastrophically'}`,
      { data: { pattern } },
    );
  }
  return { source, flags: allFlags };
}

async function match(
  compiled: CompiledPattern,
  fullText: string,
  trial: Pick<EvaluationContext, 'output' | 'signal'>,
): Promise<Verdict> {
  const truncated = fullText.length > REGEX_INPUT_LIMIT;
  const text = truncated ? fullText.slice(0, REGEX_INPUT_LIMIT) : fullText;
  const note = truncated
    ? ` (only the first ${REGEX_INPUT_LIMIT} of ${fullText.length} characters were matched)`
    : '';
  const shown = `/${compiled.source}/${compiled.flags}`;
  const base = { pattern: shown, truncated, input_length: fullText.length };
  const outcome = await timedMatch(
    { kind: 'regex', source: compiled.source, flags: compiled.flags, text },
    trial,
  );
  if (outcome.kind !== 'done')
    return cannotJudge(unansweredMatch(outcome, `matching ${shown} on ${text.length} characters`), base);
  const found = outcome.value as
    | { matched: false }
    | { matched: true; value: string; index: number; groups: Record<string, string> };
  if (!found.matched) return binary(false, `output does not match ${shown}${note}`, base);
  return binary(true, `output matches ${shown}${note}`, {
    ...base,
    match: preview(found.value),
    index: found.index,
    groups: found.groups,
  });
}

/** The output matches a regular expression (compiled and safety-checked once, run on a match worker with a time limit). */
export const regex: EvaluatorDefinition<typeof options> = {
  name: 'regex',
  description: 'output matches a regular expression',
  options,
  create(opts) {
    const fixed = opts.pattern === undefined ? undefined : compilePattern(opts.pattern, opts.flags);
    const fromTasks = new Map<string, CompiledPattern | string>();
    return evaluatorFrom('regex', ({ task, output, signal }) => {
      let compiled = fixed;
      if (compiled === undefined) {
        if (typeof task.expected !== 'string') {
          return cannotJudge('regex needs a "pattern" option or a text "expected" on the task');
        }
        let cached = fromTasks.get(task.expected);
        if (cached === undefined) {
          try {
            cached = compilePattern(task.expected, opts.flags);
          } catch (error) {
            cached = HarnessEvalError.is(error) ? error.message : String(error);
          }
          fromTasks.set(task.expected, cached);
        }
        if (typeof cached === 'string') return cannotJudge(cached);
        compiled = cached;
      }
      if (opts.target === 'structured') {
        const data = outputAsJson(output);
        if (!data.ok) return binary(false, data.reason);
        return match(compiled, JSON.stringify(data.value) ?? '', { output, signal });
      }
      return match(compiled, outputText(output), { output, signal });
    });
  },
};
