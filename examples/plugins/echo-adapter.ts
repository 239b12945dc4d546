/**
 * A user adapter: answers every input with `prefix + input`. It shows the rules every adapter
 * follows: options checked by a zod schema, the trial's signal honoured, and no throw from `run`
 * (a failure is an AgentOutput with `error`, built by `failedOutput`).
 */
import { z } from 'zod';
import { type AdapterDefinition, abortedOutput, failedOutput } from '../../src/adapters/index.ts';

const options = z.object({ prefix: z.string().default('echo: '), fail_on: z.string().optional() }).strict();

export const echoAdapter: AdapterDefinition<typeof options> = {
  name: 'echo',
  description: 'answers with the prefix and the input',
  options,
  async create(opts, environment) {
    return {
      specificationVersion: 'v1',
      name: environment.harness.name,
      async run(input, ctx) {
        if (ctx.signal.aborted) return abortedOutput(ctx.signal);
        const text = typeof input === 'string' ? input : JSON.stringify(input);
        if (opts.fail_on !== undefined && text.includes(opts.fail_on)) {
          return failedOutput('agent', `refusing input containing "${opts.fail_on}"`);
        }
        return {
          output: `${opts.prefix}${text}`,
          latency: 0,
          tool_calls: [{ tool_name: 'echo', args: { text }, status: 'success' }],
          usage: { tokens_in: text.length, tokens_out: text.length, cached_tokens: 0, cost_usd: null },
          metadata: {},
        };
      },
    };
  },
};
