import { fileURLToPath } from 'node:url';
import { type AgentOutputDraft, agentOutput } from '../../../src/core/agent-output.ts';
import { type EvaluationResult, EvaluationResultSchema } from '../../../src/core/evaluation.ts';
import { type Task, type TaskDraft, TaskSchema } from '../../../src/core/task.ts';
import { createEvaluator } from '../../../src/evaluators/registry.ts';

export const fixturesDir = fileURLToPath(new URL('../../fixtures/evaluators/', import.meta.url));

export function makeTask(draft: Partial<TaskDraft> = {}): Task {
  return TaskSchema.parse({ id: 't1', input: 'hi', ...draft });
}

export function makeOutput(draft: Partial<AgentOutputDraft> = {}): ReturnType<typeof agentOutput> {
  return agentOutput({ output: '', ...draft });
}

export interface JudgeOptions {
  readonly task?: Partial<TaskDraft>;
  readonly output?: Partial<AgentOutputDraft>;
  readonly negate?: boolean;
  readonly workspace?: string;
  readonly baseDir?: string;
  readonly signal?: AbortSignal;
}

/** Creates the evaluator through the registry and runs it once; the result must satisfy the schema. */
export async function judge(
  name: string,
  options: Record<string, unknown>,
  how: JudgeOptions = {},
): Promise<EvaluationResult> {
  const evaluator = await createEvaluator(
    { name, options, negate: how.negate ?? false },
    { baseDir: how.baseDir ?? fixturesDir, env: process.env },
  );
  const ctx = {
    task: makeTask(how.task),
    output: makeOutput(how.output),
    signal: how.signal ?? new AbortController().signal,
    ...(how.workspace === undefined ? {} : { workspace: how.workspace }),
  };
  const result = await evaluator.evaluate(ctx);
  return EvaluationResultSchema.parse(result);
}

export const errored = { output: '', error: 'connection reset', error_kind: 'transient' } as const;

/** 10 MB of text. */
export const huge = 'x'.repeat(10 * 1024 * 1024);
