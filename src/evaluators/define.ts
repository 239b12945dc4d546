import { toResult, type Verdict } from './result.ts';
import type { EvaluationContext, EvaluatorV1 } from './types.ts';

/** An `EvaluatorV1` from a judging function; the common rules are added by the registry. */
export function evaluatorFrom(
  name: string,
  judge: (ctx: EvaluationContext) => Verdict | Promise<Verdict>,
): EvaluatorV1 {
  return {
    specificationVersion: 'v1',
    name,
    async evaluate(ctx) {
      return toResult(name, await judge(ctx));
    },
  };
}
