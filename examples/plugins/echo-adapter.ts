/**
 * A user adapter: answers every input with `prefix + input`. It shows the rules every adapter
 * follows: options checked by a zod schema, the trial's signal honoured, and no throw from `run`
 * (a failure is an AgentOutput with `error`, built by `failedOutput`).
 */
import { abortedOutput, defineAdapter, failedOutput, optionsSchema, z } from 'harnesseval/plugin';

export const echoAdapter = defineAdapter({
  name: 'echo',
  description: 'answers with the prefix and the input',
  options: optionsSchema({ prefix: z.string().default('echo: '), fail_on: z.string().optional() }),
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
});
