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
      const passed = usd <= opts.max_usd;
      return binary(passed, `cost $${usd.toFixed(6)} ${passed ? '<=' : '>'} $${opts.max_usd}`, {
        cost_usd: usd,
        max_usd: opts.max_usd,
      });
    });
  },
};
