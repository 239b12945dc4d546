import type { Harness } from 'harnesseval';

/** The smallest instrumented harness: one timed model call with its tokens, and a planned approval. */
export const minimalHarness: Harness = {
  name: 'minimal-harness',
  async run(task, ctx) {
    ctx.prompts.planned(String(task.input));
    const reply = await ctx.agents.wrap(
      { role: 'developer', model: 'gpt-4o-mini', provider: 'openai' },
      // Your model call goes here; this stand-in answers at once.
      async () => ({ text: `echo: ${String(task.input)}`, usage: { input: 12, output: 4 } }),
      (r) => ({ tokens_in: r.usage.input, tokens_out: r.usage.output, cost_usd: 0.0000042 }),
    );
    ctx.hitl.record({ action: 'approve', kind: 'planned', minutes: 1 });
    return reply.text;
  },
};
