import { HarnessEvalError } from '../core/errors.ts';
import { analyzeRegex } from '../util/regex-safety.ts';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { execRegex } from './regex-worker.ts';
import { binary, cannotJudge, type Verdict } from './result.ts';
import { outputAsJson, outputText, preview } from './text.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.regex;

/** Only the first MiB of an output is matched; larger outputs say so in the result. */
export const REGEX_INPUT_LIMIT = 1024 * 1024;
/** A match that takes longer than this is stopped (see regex-worker.ts). */
export const REGEX_TIME_LIMIT_MS = 2000;

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

async function match(compiled: CompiledPattern, fullText: string): Promise<Verdict> {
  const truncated = fullText.length > REGEX_INPUT_LIMIT;
  const text = truncated ? fullText.slice(0, REGEX_INPUT_LIMIT) : fullText;
  const note = truncated
    ? ` (only the first ${REGEX_INPUT_LIMIT} of ${fullText.length} characters were matched)`
    : '';
  const shown = `/${compiled.source}/${compiled.flags}`;
  const base = { pattern: shown, truncated, input_length: fullText.length };
  const outcome = await execRegex(
    { source: compiled.source, flags: compiled.flags, text },
    REGEX_TIME_LIMIT_MS,
  );
  switch (outcome.kind) {
    case 'match':
      return binary(true, `output matches ${shown}${note}`, {
        ...base,
        match: preview(outcome.value),
        index: outcome.index,
        groups: outcome.groups,
      });
    case 'no_match':
      return binary(false, `output does not match ${shown}${note}`, base);
    case 'timeout':
      return cannotJudge(
        `matching ${shown} took longer than ${REGEX_TIME_LIMIT_MS / 1000} s on ${text.length} characters and was stopped`,
        base,
      );
    case 'error':
      return cannotJudge(`matching ${shown} failed: ${outcome.message}`, base);
  }
}

/** The output matches a regular expression (compiled and safety-checked once, run off-thread with a time limit). */
export const regex: EvaluatorDefinition<typeof options> = {
  name: 'regex',
  description: 'output matches a regular expression',
  options,
  create(opts) {
    const fixed = opts.pattern === undefined ? undefined : compilePattern(opts.pattern, opts.flags);
    const fromTasks = new Map<string, CompiledPattern | string>();
    return evaluatorFrom('regex', ({ task, output }) => {
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
        return match(compiled, JSON.stringify(data.value) ?? '');
      }
      return match(compiled, outputText(output));
    });
  },
};
