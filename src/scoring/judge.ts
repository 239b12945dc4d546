import type { z } from 'zod';
import type { Grade } from '../core/evaluation.ts';
import type { JudgeConfig } from './judge-config.ts';
import {
  buildJudgePrompt,
  type JudgeAnswerSchema,
  type JudgeRequest,
  parseJudgeAnswer,
} from './judge-prompt.ts';
import { sameModel } from './model-identity.ts';
import { rubricLevelScore } from './rubric-score.ts';

export { buildJudgePrompt, JudgeAnswerSchema, type JudgeRequest, parseJudgeAnswer } from './judge-prompt.ts';

/** Sends one prompt to a model and returns its text (the AI SDK in production, a stub in unit tests). */
export type CompleteText = (prompt: {
  system: string;
  prompt: string;
  signal?: AbortSignal;
}) => Promise<string>;

/**
 * Grades one rubric dimension, `judge.samples` times, at temperature 0. Scores are averaged; the
 * level recorded is the rounded mean. One retry per sample when the answer is not valid JSON.
 */
export async function gradeDimension(
  request: JudgeRequest,
  judge: JudgeConfig,
  complete: CompleteText,
  signal?: AbortSignal,
): Promise<Grade> {
  const { system, prompt, hash } = buildJudgePrompt(request);
  const answers: z.infer<typeof JudgeAnswerSchema>[] = [];
  for (let i = 0; i < judge.samples; i++) {
    let lastError: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        answers.push(
          parseJudgeAnswer(await complete({ system, prompt, ...(signal === undefined ? {} : { signal }) })),
        );
        lastError = undefined;
        break;
      } catch (error) {
        lastError = error;
      }
    }
    if (lastError !== undefined) throw lastError;
  }
  const meanScore = answers.reduce((s, a) => s + rubricLevelScore(a.level), 0) / answers.length;
  const meanLevel = answers.reduce((s, a) => s + a.level, 0) / answers.length;
  return {
    dimension: request.dimension.name,
    level: Math.round(meanLevel),
    score: meanScore,
    rationale: answers.map((a) => a.rationale).join(' | '),
    grader: `${judge.provider}:${judge.model}`,
    grader_kind: 'llm',
    graded_at: new Date().toISOString(),
    judge_model: judge.model,
    prompt_hash: hash,
    samples: answers.length,
  };
}

/**
 * A judge must not grade its own work (seed 004: separate the evaluator from the producer). Names
 * are compared as model identities, so `openai/Judge-X-2025-01-01` is `judge-x` while `gpt-4o-mini`
 * is not `gpt-4o`.
 */
export function selfJudgeProblem(judge: JudgeConfig, producerModels: readonly string[]): string | undefined {
  if (judge.allow_self_judge) return undefined;
  const same = producerModels.find((m) => sameModel(m, judge.model));
  return same === undefined
    ? undefined
    : `the judge model ${judge.model} produced this work (${same}); use another model or set allow_self_judge: true`;
}

/** The AI SDK client for a judge config, with temperature 0. */
export async function aiSdkCompletion(judge: JudgeConfig, apiKey: string | undefined): Promise<CompleteText> {
  const { generateText } = await import('ai');
  const model = await languageModel(judge, apiKey);
  return async ({ system, prompt, signal }) => {
    const result = await generateText({
      model,
      system,
      prompt,
      temperature: 0,
      maxRetries: 2,
      ...(signal === undefined ? {} : { abortSignal: signal }),
    });
    return result.text;
  };
}

async function languageModel(judge: JudgeConfig, apiKey: string | undefined) {
  switch (judge.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(judge.base_url === undefined ? {} : { baseURL: judge.base_url }),
      })(judge.model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(judge.base_url === undefined ? {} : { baseURL: judge.base_url }),
      })(judge.model);
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'judge',
        baseURL: judge.base_url ?? '',
        ...(apiKey === undefined ? {} : { apiKey }),
      })(judge.model);
    }
  }
}
