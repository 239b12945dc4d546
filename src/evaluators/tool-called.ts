import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.tool_called;

/**
 * Required tools were called, forbidden ones were not, and the number of calls is within
 * min/max (calls of `tool` when it is set, else all calls). With no option at all, some tool
 * must have been called. Score = checks passed / checks made.
 */
export const toolCalled: EvaluatorDefinition<typeof options> = {
  name: 'tool_called',
  description: 'required tools were called, forbidden ones were not, call counts within bounds',
  options,
  create(opts) {
    const required = [...new Set([...(opts.tool === undefined ? [] : [opts.tool]), ...opts.required])];
    const nothingAsked =
      required.length === 0 &&
      opts.forbidden.length === 0 &&
      opts.min_calls === undefined &&
      opts.max_calls === undefined;
    const minCalls = nothingAsked ? 1 : opts.min_calls;
    return evaluatorFrom('tool_called', ({ output }) => {
      const called = output.tool_calls.map((call) => call.tool_name);
      const calledSet = new Set(called);
      const failures: string[] = [];
      let checks = 0;
      for (const tool of required) {
        checks++;
        if (!calledSet.has(tool)) failures.push(`required tool "${tool}" was not called`);
      }
      for (const tool of opts.forbidden) {
        checks++;
        if (calledSet.has(tool)) failures.push(`forbidden tool "${tool}" was called`);
      }
      const count =
        opts.tool === undefined ? called.length : called.filter((name) => name === opts.tool).length;
      const what = opts.tool === undefined ? 'tool calls' : `calls of "${opts.tool}"`;
      if (minCalls !== undefined) {
        checks++;
        if (count < minCalls) failures.push(`${count} ${what}, fewer than ${minCalls}`);
      }
      if (opts.max_calls !== undefined) {
        checks++;
        if (count > opts.max_calls) failures.push(`${count} ${what}, more than ${opts.max_calls}`);
      }
      const passed = failures.length === 0;
      const errored = output.tool_calls
        .filter((call) => call.status === 'error')
        .map((call) => call.tool_name);
      return {
        score: checks === 0 ? 1 : (checks - failures.length) / checks,
        passed,
        explanation: passed
          ? `tool calls as required (${called.length === 0 ? 'none' : called.join(', ')})`
          : failures.join('; '),
        details: { called, errored_calls: errored, failures },
      };
    });
  },
};
