import { z } from 'zod';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { loadUserExport } from '../plugins/user-module.ts';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary, cannotJudge, type Verdict } from './result.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.javascript;

/** A number at or above this passes; return `{ score, passed }` to decide otherwise. */
export const JAVASCRIPT_PASS_SCORE = 0.5;

const unitScore = z.number().finite().min(0).max(1);
const ReturnSchema = z.union([
  z.boolean(),
  unitScore,
  z.object({
    score: unitScore,
    passed: z.boolean().optional(),
    explanation: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
]);

function toVerdict(value: z.infer<typeof ReturnSchema>, reference: string): Verdict {
  if (typeof value === 'boolean') return binary(value, `${reference} returned ${value}`);
  if (typeof value === 'number') {
    return {
      score: value,
      passed: value >= JAVASCRIPT_PASS_SCORE,
      explanation: `${reference} returned ${value}`,
    };
  }
  const passed = value.passed ?? value.score >= JAVASCRIPT_PASS_SCORE;
  const explanation = value.explanation ?? `${reference} returned score ${value.score}`;
  return value.details === undefined
    ? { score: value.score, passed, explanation }
    : { score: value.score, passed, explanation, details: value.details };
}

/** Settles with `work`, or rejects when the trial's signal fires (an async function that never settles). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A user function `(output, task, options, { signal, workspace })` from a TypeScript or
 * JavaScript file. It may return a boolean, a score 0..1, or `{ score, passed?, explanation?, details? }`.
 * A throw or any other return scores 0 with the reason. It gets copies, so it cannot alter the record.
 * An async function that never settles is stopped by the trial's signal; a synchronous endless loop cannot be.
 */
export const javascript: EvaluatorDefinition<typeof options> = {
  name: 'javascript',
  description: 'a user TypeScript/JavaScript function scores the output',
  options,
  async create(opts, environment) {
    const fn = await loadUserExport(opts.module, environment.baseDir);
    if (typeof fn !== 'function') {
      throw new HarnessEvalError(
        'invalid_config',
        `javascript: ${opts.module} is not a function (${typeof fn})`,
      );
    }
    return evaluatorFrom('javascript', async ({ output, task, signal, workspace }) => {
      let returned: unknown;
      try {
        const call = Promise.resolve(
          fn(structuredClone(output), structuredClone(task), structuredClone(opts.options), {
            signal,
            workspace,
          }),
        );
        returned = await untilAborted(call, signal);
      } catch (error) {
        if (signal.aborted) return cannotJudge(`${opts.module} was stopped: the trial was aborted`);
        return cannotJudge(`${opts.module} threw: ${errorMessage(error)}`);
      }
      const parsed = ReturnSchema.safeParse(returned);
      if (!parsed.success) {
        const shown = JSON.stringify(returned) ?? String(returned);
        return cannotJudge(
          `${opts.module} returned ${shown.slice(0, 200)}; expected a boolean, a number 0..1 or { score, passed?, explanation? }`,
        );
      }
      return toVerdict(parsed.data, opts.module);
    });
  },
};
