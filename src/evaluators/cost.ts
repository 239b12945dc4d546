import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary } from './result.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.cost;

/** The trial cost at most `max_usd`; an unknown cost fails (a budget cannot be checked blind). */
export const cost: EvaluatorDefinition<typeof options> = {
  name: 'cost',
  description: 'the trial cost at most max_usd',
  options,
  create(opts) {
    return evaluatorFrom('cost', ({ output }) => {
      const usd = output.usage.cost_usd;
      if (usd === null)
        return binary(false, 'cost unknown: the agent reported no cost and no price was known');
      const unpriced = output.usage.unpriced_calls ?? 0;
      const details = { cost_usd: usd, max_usd: opts.max_usd, unpriced_calls: unpriced };
      if (usd > opts.max_usd)
        return binary(
          false,
          `cost ${unpriced > 0 ? 'at least ' : ''}$${usd.toFixed(6)} > $${opts.max_usd}`,
          details,
        );
      // Below the budget so far, but unpriced calls could take it over: not checkable.
      if (unpriced > 0)
        return binary(
          false,
          `cost partial: $${usd.toFixed(6)} for the priced calls, ${unpriced} ${unpriced === 1 ? 'call' : 'calls'} unpriced, so the budget $${opts.max_usd} cannot be checked (add their prices with pricing: in the harness config)`,
          details,
        );
      return binary(true, `cost $${usd.toFixed(6)} <= $${opts.max_usd}`, details);
    });
  },
};
