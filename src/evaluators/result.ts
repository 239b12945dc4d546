import { errorMessage } from '../core/errors.ts';
import type { EvaluationResult } from '../core/evaluation.ts';
import type { EvaluationContext, EvaluatorV1 } from './types.ts';

/** What an evaluator decides before the common rules (clamping, negation, errors) are applied. */
export interface Verdict {
  readonly score: number;
  readonly passed: boolean;
  readonly explanation: string;
  readonly details?: Record<string, unknown>;
  /** Set when the evaluator could not judge (bad run-time input, a crash in user code). */
  readonly error?: string | undefined;
}

/** A pass/fail verdict scoring 1 or 0. */
export function binary(passed: boolean, explanation: string, details?: Record<string, unknown>): Verdict {
  return details === undefined
    ? { score: passed ? 1 : 0, passed, explanation }
    : { score: passed ? 1 : 0, passed, explanation, details };
}

/** The evaluator could not judge: score 0, not passed, and `error` says why. */
export function cannotJudge(message: string, details?: Record<string, unknown>): Verdict {
  return details === undefined
    ? { score: 0, passed: false, explanation: message, error: message }
    : { score: 0, passed: false, explanation: message, error: message, details };
}

function clampScore(score: number): number {
  if (!Number.isFinite(score)) return 0;
  return Math.min(1, Math.max(0, score));
}

/** Builds an `EvaluationResult` that always satisfies the schema (score finite, 0..1). */
export function toResult(evaluator: string, verdict: Verdict, negated = false): EvaluationResult {
  const result: EvaluationResult = {
    evaluator,
    score: clampScore(verdict.score),
    passed: verdict.passed,
    explanation: verdict.explanation,
    details: verdict.details ?? {},
    negated,
  };
  if (verdict.error !== undefined) result.error = verdict.error;
  return result;
}

/** Flips a verdict for `negate: true`. Errors are never flipped into passes. */
export function negateVerdict(verdict: Verdict): Verdict {
  if (verdict.error !== undefined) return verdict;
  return {
    ...verdict,
    score: 1 - clampScore(verdict.score),
    passed: !verdict.passed,
    explanation: `negated: ${verdict.explanation}`,
  };
}

export interface CommonBehaviour {
  /** Name shown in results (the ref's label, or the evaluator's name). */
  readonly label: string;
  readonly negate: boolean;
}

/**
 * The rules every evaluator follows, applied in one place: an errored output scores 0 and says
 * why (negation does not turn it into a pass), a throw becomes an `error` result, `negate` flips
 * the verdict, and the result is clamped to the schema.
 */
export function withCommonBehaviour(inner: EvaluatorV1, behaviour: CommonBehaviour): EvaluatorV1 {
  return {
    specificationVersion: 'v1',
    name: behaviour.label,
    ...(inner.judgesErrors === true ? { judgesErrors: true } : {}),
    async evaluate(ctx: EvaluationContext): Promise<EvaluationResult> {
      if (ctx.output.error !== undefined && inner.judgesErrors !== true && ctx.errorIsOutput !== true) {
        const kind = ctx.output.error_kind === undefined ? '' : ` (${ctx.output.error_kind})`;
        return toResult(
          behaviour.label,
          binary(false, `the agent output is an error${kind}: ${ctx.output.error}`, { output_error: true }),
          behaviour.negate,
        );
      }
      let verdict: Verdict;
      try {
        const result = await inner.evaluate(ctx);
        verdict = result;
      } catch (error) {
        verdict = cannotJudge(`evaluator ${inner.name} failed: ${errorMessage(error)}`);
      }
      return toResult(behaviour.label, behaviour.negate ? negateVerdict(verdict) : verdict, behaviour.negate);
    },
  };
}
