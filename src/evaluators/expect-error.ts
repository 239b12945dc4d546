import { ANSWER_ERROR_KINDS, type ErrorKind } from '../core/agent-output.ts';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { compilePattern } from './regex.ts';
import { binary } from './result.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.expect_error;

/** Error messages are matched on their first 10 KB (a refusal fits; a stderr dump is cut). */
const MESSAGE_LIMIT = 10 * 1024;

/**
 * Passes when the trial ended in the error the test expects: a server refusing what it should
 * refuse ("access denied outside the root", invalid arguments, an unknown tool) is a pass, not
 * an errored trial. A task with this evaluator treats an answer error (ANSWER_ERROR_KINDS) as its
 * output; a timeout, a config problem or an interruption stays an errored trial.
 */
export const expectError: EvaluatorDefinition<typeof options> = {
  name: 'expect_error',
  description: 'the trial ends in the expected error (kind, message)',
  options,
  judgesErrors: true,
  create(opts) {
    const kinds: readonly ErrorKind[] =
      opts.kind === undefined ? ANSWER_ERROR_KINDS : Array.isArray(opts.kind) ? opts.kind : [opts.kind];
    const compiled = opts.pattern === undefined ? undefined : compilePattern(opts.pattern, '');
    const regex = compiled === undefined ? undefined : new RegExp(compiled.source, compiled.flags);
    const wanted = [
      kinds.join(' or '),
      ...(opts.message === undefined ? [] : [`containing ${JSON.stringify(opts.message)}`]),
      ...(opts.pattern === undefined ? [] : [`matching /${opts.pattern}/`]),
    ].join(' ');
    return evaluatorFrom('expect_error', ({ output }) => {
      if (output.error === undefined)
        return binary(false, `the call succeeded; expected an error (${wanted})`);
      const kind = output.error_kind ?? 'agent';
      const message = output.error.slice(0, MESSAGE_LIMIT);
      const details = { error_kind: kind };
      if (!kinds.includes(kind))
        return binary(false, `the error is ${kind}, expected ${kinds.join(' or ')}: ${message}`, details);
      if (opts.message !== undefined && !message.includes(opts.message))
        return binary(
          false,
          `the ${kind} error does not contain ${JSON.stringify(opts.message)}: ${message}`,
          details,
        );
      if (regex !== undefined && !regex.test(message))
        return binary(false, `the ${kind} error does not match /${opts.pattern}/: ${message}`, details);
      return binary(true, `failed as expected (${kind}): ${message}`, details);
    });
  },
};
