import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary } from './result.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.latency;

/** The trial took at most `max_seconds`. */
export const latency: EvaluatorDefinition<typeof options> = {
  name: 'latency',
  description: 'the agent answered within max_seconds',
  options,
  create(opts) {
    return evaluatorFrom('latency', ({ output }) => {
      const passed = output.latency <= opts.max_seconds;
      return binary(
        passed,
        `latency ${output.latency.toFixed(3)} s ${passed ? '<=' : '>'} ${opts.max_seconds} s`,
        { latency: output.latency, max_seconds: opts.max_seconds },
      );
    });
  },
};
