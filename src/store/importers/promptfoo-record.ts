import type { ErrorKind, Usage } from '../../core/agent-output.ts';
import type { EvaluationResult } from '../../core/evaluation.ts';
import type { RunRecordDraft } from '../../core/run-record.ts';
import { clip } from './experiment-draft.ts';
import {
  PROMPTFOO_RESULT_FIELDS,
  type PromptfooComponent,
  type PromptfooResult,
  type PromptfooTokenUsage,
} from './promptfoo-schema.ts';
import { withoutSecretKeys } from './secret-keys.ts';
import type { UnmappedFields } from './unmapped.ts';

// ResultFailureReason.ERROR (src/types/index.ts): the provider or the pipeline failed, no verdict.
const FAILURE_ERROR = 2;

/**
 * The kind of a promptfoo error. promptfoo keeps every error as text in one field; a provider or
 * transport failure (HTTP 4xx/5xx from the API, rate limits, connection errors, "API error") says
 * nothing about the prompt under test, so it is `infra` (left out of rates). A timeout is
 * `timeout`; anything else (a transform that threw, output that could not be parsed) is `agent`.
 */
export function promptfooErrorKind(text: string): ErrorKind {
  if (
    /\b(API (call )?error|HTTP (call )?error|rate.?limit|too many requests|quota|unauthori[sz]ed|forbidden|invalid api key|incorrect api key|service unavailable|bad gateway|overloaded|internal server error|fetch failed|socket hang up|network error|ECONNRESET|ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|40[138]|429|50[0234]|529)\b/i.test(
      text,
    ) ||
    /request failed after \d+ retries/i.test(text)
  )
    return 'infra';
  if (/\btim(ed|e)\s?out\b|\btimeout\b/i.test(text)) return 'timeout';
  return 'agent';
}

/**
 * Tokens as promptfoo counted them (`response.tokenUsage`, else the result's). A result with
 * neither a prompt nor a completion count (a provider that reports none) has unknown tokens, never 0;
 * promptfoo writes `cost: 0` when it has no price (`toEvaluateResult`: `cost || 0`), so a 0 cost is
 * unknown unless the provider's response says 0 itself.
 */
function usage(result: PromptfooResult): Usage {
  const counted: PromptfooTokenUsage | undefined = result.response?.tokenUsage ?? result.tokenUsage;
  const known = typeof counted?.prompt === 'number' || typeof counted?.completion === 'number';
  const cost =
    typeof result.cost === 'number' && result.cost > 0 ? result.cost : (result.response?.cost ?? null);
  return {
    tokens_in: counted?.prompt ?? 0,
    tokens_out: counted?.completion ?? 0,
    cached_tokens: 0,
    cost_usd: cost,
    ...(known ? {} : { tokens_unknown: true as const }),
  };
}

const inUnit = (value: number) => Number.isFinite(value) && value >= 0 && value <= 1;

/** Each assertion's verdict (`gradingResult.componentResults`) as one evaluation. */
function evaluations(result: PromptfooResult, unmapped: UnmappedFields): EvaluationResult[] {
  const grading = result.gradingResult;
  if (grading == null) return [];
  const components: PromptfooComponent[] =
    grading.componentResults ?? (grading.assertion == null ? [] : [grading]);
  const out: EvaluationResult[] = [];
  for (const component of components) {
    const type = component.assertion?.type ?? 'assertion';
    if (!inUnit(component.score)) {
      unmapped.note(
        'gradingResult.componentResults[].score',
        'outside 0..1: the verdict is kept, the score is not',
      );
    }
    if (component.componentResults !== undefined && component.componentResults.length > 0)
      unmapped.note(
        'gradingResult.componentResults[].componentResults',
        'nested assert-set results are not mapped',
      );
    if (component.tokensUsed !== undefined)
      unmapped.note(
        'gradingResult.componentResults[].tokensUsed',
        "a grader's tokens are not counted in the trial's usage",
      );
    const negated = type.startsWith('not-');
    const value = component.assertion?.value;
    out.push({
      evaluator: negated ? type.slice(4) : type,
      negated,
      score: inUnit(component.score) ? component.score : component.pass ? 1 : 0,
      passed: component.pass,
      explanation: clip(component.reason, 2000),
      details: withoutSecretKeys({
        ...(component.assertion?.metric === undefined ? {} : { metric: component.assertion.metric }),
        ...(component.assertion?.weight === undefined ? {} : { weight: component.assertion.weight }),
        ...(value === undefined ? {} : { value: typeof value === 'string' ? clip(value, 2000) : value }),
        ...(inUnit(component.score) ? {} : { promptfoo_score: component.score }),
      }) as Record<string, unknown>,
    });
  }
  return out;
}

const notEmpty = (value: unknown) =>
  value !== undefined &&
  value !== null &&
  !(typeof value === 'object' && Object.keys(value as object).length === 0);

function outputText(output: unknown): string {
  if (output === undefined || output === null) return '';
  return typeof output === 'string' ? output : JSON.stringify(output);
}

/** One promptfoo result (a test case run through one prompt x provider) as a run record. */
export function promptfooRecord(
  result: PromptfooResult,
  options: {
    readonly taskId: string;
    readonly epoch: number;
    readonly harness: { name: string; version: string; model: string };
    readonly timestamp: string;
    readonly evalId: string;
    /** Set: the score decides pass or fail; unset: promptfoo's own `success` does. */
    readonly passThreshold: number | undefined;
    readonly unmapped: UnmappedFields;
  },
): RunRecordDraft {
  const { unmapped } = options;
  unmapped.unknownKeys(result, PROMPTFOO_RESULT_FIELDS, 'results[].');
  for (const key of ['provider', 'options'] as const)
    if (notEmpty(result.testCase[key]))
      unmapped.note(`results[].testCase.${key}`, 'not imported (provider settings can hold API keys)');
  if (result.response?.logProbs !== undefined)
    unmapped.note('results[].response.logProbs', 'token log-probabilities are not kept');
  const errorText = result.error ?? result.response?.error ?? undefined;
  const errored =
    result.failureReason === FAILURE_ERROR ||
    (errorText != null && !result.success && result.gradingResult == null);
  const message = errorText ?? 'promptfoo recorded an error without a message';
  const kind = promptfooErrorKind(message);
  const verdict: Pick<RunRecordDraft, 'outcome' | 'error' | 'error_kind'> = errored
    ? { outcome: 'error', error: clip(message, 1000), error_kind: kind }
    : {
        outcome: (
          options.passThreshold === undefined
            ? result.success
            : result.score >= options.passThreshold
        )
          ? 'pass'
          : 'fail',
      };
  const u = usage(result);
  const evals = evaluations(result, unmapped);
  const latency = (result.latencyMs ?? 0) / 1000;
  const response = result.response;
  return {
    run_id: result.id ?? '',
    task_id: options.taskId,
    epoch: options.epoch,
    harness_config: options.harness,
    timestamp: options.timestamp,
    duration_seconds: latency,
    cost_usd: u.cost_usd,
    ...verdict,
    input: withoutSecretKeys(result.testCase.vars ?? result.vars ?? {}) as Record<string, unknown>,
    output: {
      output: outputText(response?.output),
      latency,
      tool_calls: [],
      usage: u,
      metadata: {},
      ...(verdict.error === undefined ? {} : { error: verdict.error, error_kind: verdict.error_kind }),
    },
    evaluations: evals,
    metrics: {
      ...(u.tokens_unknown ? {} : { tokens_in: u.tokens_in, tokens_out: u.tokens_out }),
      acceptance_criteria_total: evals.length,
      acceptance_criteria_passed: evals.filter((e) => e.passed).length,
    },
    scores: !errored && inUnit(result.score) ? { overall: result.score } : {},
    metadata: {
      promptfoo: withoutSecretKeys({
        eval_id: options.evalId,
        ...(result.id === undefined ? {} : { result_id: result.id }),
        test_idx: result.testIdx,
        prompt_idx: result.promptIdx,
        ...(result.testCase.description === undefined ? {} : { description: result.testCase.description }),
        provider: {
          id: result.provider.id,
          ...(result.provider.label ? { label: result.provider.label } : {}),
        },
        prompt: {
          ...(result.prompt.label === undefined ? {} : { label: clip(result.prompt.label, 200) }),
          ...(result.prompt.raw === undefined ? {} : { raw: clip(result.prompt.raw, 4000) }),
        },
        success: result.success,
        score: result.score,
        failure_reason: result.failureReason,
        ...(result.gradingResult == null ? {} : { grading_reason: clip(result.gradingResult.reason, 2000) }),
        ...(result.namedScores == null || Object.keys(result.namedScores).length === 0
          ? {}
          : { named_scores: result.namedScores }),
        ...(result.testCase.assert === undefined ? {} : { assert: result.testCase.assert }),
        ...(notEmpty(result.testCase.metadata) ? { test_metadata: result.testCase.metadata } : {}),
        ...(result.metadata == null || Object.keys(result.metadata).length === 0
          ? {}
          : { result_metadata: result.metadata }),
        ...(response?.cached === undefined ? {} : { cached: response.cached }),
        ...(response?.tokenUsage === undefined ? {} : { token_usage: response.tokenUsage }),
      }),
    },
  };
}
