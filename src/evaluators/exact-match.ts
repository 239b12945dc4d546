import { isDeepStrictEqual } from 'node:util';
import { outputText } from '../core/agent-output.ts';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary } from './result.ts';
import { normalizeText, outputAsJson, preview } from './text.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.exact_match;

/** Text equal to the expected string (after trim / case folding), or data deep-equal to expected data. */
export const exactMatch: EvaluatorDefinition<typeof options> = {
  name: 'exact_match',
  description: 'output equals the expected value (text, or deep equality for data)',
  options,
  create(opts) {
    return evaluatorFrom('exact_match', ({ task, output }) => {
      const expected = opts.expected ?? task.expected;
      if (expected === undefined) return binary(true, 'no expected output', { expected: null });
      if (typeof expected === 'string') {
        const how = { trim: opts.trim, ignoreCase: opts.ignore_case };
        const actual = outputText(output);
        const passed = normalizeText(actual, how) === normalizeText(expected, how);
        return binary(
          passed,
          passed
            ? 'output equals the expected text'
            : `expected "${preview(expected)}", got "${preview(actual)}"`,
          { expected: preview(expected), actual: preview(actual) },
        );
      }
      const data = outputAsJson(output);
      if (!data.ok)
        return binary(false, `expected data ${preview(JSON.stringify(expected))}, but ${data.reason}`);
      const passed = isDeepStrictEqual(data.value, expected);
      return binary(
        passed,
        passed
          ? 'output deep-equals the expected data'
          : `expected ${preview(JSON.stringify(expected))}, got ${preview(JSON.stringify(data.value) ?? 'undefined')}`,
      );
    });
  },
};
