import { isDeepStrictEqual } from 'node:util';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary } from './result.ts';
import { preview } from './text.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.tool_args;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every key of `part` is in `whole` with a matching value; nested objects match the same way, arrays exactly. */
export function isSubsetOf(part: unknown, whole: unknown): boolean {
  if (isPlainObject(part) && isPlainObject(whole)) {
    return Object.entries(part).every(
      ([key, value]) => Object.hasOwn(whole, key) && isSubsetOf(value, whole[key]),
    );
  }
  return isDeepStrictEqual(part, whole);
}

type Mode = 'exact' | 'subset' | 'superset';

function argsMatch(mode: Mode, expected: Record<string, unknown>, actual: Record<string, unknown>): boolean {
  switch (mode) {
    case 'exact':
      return isDeepStrictEqual(actual, expected);
    case 'subset':
      return isSubsetOf(expected, actual);
    case 'superset':
      return isSubsetOf(actual, expected);
  }
}

const MODE_WORDS: Record<Mode, string> = {
  exact: 'exactly',
  subset: 'including',
  superset: 'within',
};

/**
 * Some call of `tool` had matching arguments: `exact` (deep equality), `subset` (the expected
 * arguments appear in the call, extra ones allowed) or `superset` (the call used only expected ones).
 */
export const toolArgs: EvaluatorDefinition<typeof options> = {
  name: 'tool_args',
  description: 'a call of the tool had the expected arguments (exact, subset or superset)',
  options,
  create(opts) {
    return evaluatorFrom('tool_args', ({ output }) => {
      const calls = output.tool_calls.filter((call) => call.tool_name === opts.tool);
      if (calls.length === 0) return binary(false, `tool "${opts.tool}" was not called`, { calls: 0 });
      const index = calls.findIndex((call) => argsMatch(opts.mode, opts.arguments, call.args));
      const expected = preview(JSON.stringify(opts.arguments), 200);
      if (index >= 0) {
        return binary(
          true,
          `call ${index + 1} of "${opts.tool}" had arguments ${MODE_WORDS[opts.mode]} ${expected}`,
          {
            calls: calls.length,
            matching_call: index,
          },
        );
      }
      return binary(false, `no call of "${opts.tool}" had arguments ${MODE_WORDS[opts.mode]} ${expected}`, {
        calls: calls.length,
        actual_args: calls.slice(0, 10).map((call) => call.args),
      });
    });
  },
};
