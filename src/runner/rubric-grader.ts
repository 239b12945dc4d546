import type { AgentOutput } from '../core/agent-output.ts';
import { outputText } from '../core/agent-output.ts';
import type { CriterionResult, Grade } from '../core/evaluation.ts';
import type { Rubric } from '../core/rubric.ts';
import type { Suite } from '../core/suite.ts';
import type { Criterion, Task } from '../core/task.ts';
import { aiSdkCompletion, type CompleteText, gradeDimension, selfJudgeProblem } from '../scoring/judge.ts';
import { type JudgeConfig, judgeAvailability } from '../scoring/judge-config.ts';
import { rubricForTask } from '../scoring/rubric-lookup.ts';
import {
  criterionDimensions,
  dimensionWeights,
  gradedCriterion,
  pendingCriterion,
} from '../scoring/rubric-score.ts';
import type { CheckContext } from './checks.ts';
import { diffText } from './workspace-diff.ts';

export interface RubricGraderStatus {
  readonly judge: string | null;
  /** Why rubric criteria stay pending, when they do. */
  readonly pendingReason?: string;
}

/**
 * Grades rubric criteria with an LLM judge when one is configured and reachable; otherwise the
 * criteria stay `pending` (not failed) for `harnesseval grade`.
 */
export class RubricGrader {
  private constructor(
    private readonly suite: Suite,
    private readonly judge: JudgeConfig | undefined,
    private readonly complete: CompleteText | undefined,
    readonly status: RubricGraderStatus,
  ) {}

  static async create(
    suite: Suite,
    judge: JudgeConfig | undefined,
    env: NodeJS.ProcessEnv,
    complete?: CompleteText,
  ): Promise<RubricGrader> {
    if (judge === undefined)
      return new RubricGrader(suite, undefined, undefined, {
        judge: null,
        pendingReason: 'no judge configured (--judge or judge: in the suite)',
      });
    const name = `${judge.provider}:${judge.model}`;
    if (complete !== undefined) return new RubricGrader(suite, judge, complete, { judge: name });
    const availability = judgeAvailability(judge, env);
    if (!availability.ok)
      return new RubricGrader(suite, judge, undefined, {
        judge: name,
        pendingReason: `judge unavailable: ${availability.reason}`,
      });
    return new RubricGrader(suite, judge, await aiSdkCompletion(judge, availability.apiKey), { judge: name });
  }

  rubricFor(task: Task): Rubric | undefined {
    return rubricForTask(this.suite, task);
  }

  async grade(
    task: Task,
    criterion: Criterion,
    output: AgentOutput,
    ctx: Pick<CheckContext, 'workspaceDiff' | 'producerModels'> & {
      signal?: AbortSignal;
      passThreshold: number;
    },
  ): Promise<CriterionResult> {
    const pending = (reason: string): CriterionResult => pendingCriterion(criterion, reason);
    if (criterion.verification === 'human') return pending('waiting for a human grade');
    const rubric = this.rubricFor(task);
    if (rubric === undefined) return pending('no rubric for this task');
    if (this.judge === undefined || this.complete === undefined)
      return pending(this.status.pendingReason ?? 'no judge');
    const selfJudge = selfJudgeProblem(this.judge, ctx.producerModels);
    if (selfJudge !== undefined) return { ...pending(selfJudge), status: 'error', score: 0 };
    // For a codebase task the work is the change: the diff against the starter, then the final message.
    const work =
      ctx.workspaceDiff !== undefined
        ? `${diffText(ctx.workspaceDiff)}\n\nFinal message:\n${outputText(output)}`
        : outputText(output);
    try {
      const grades: Grade[] = [];
      for (const dimension of criterionDimensions(rubric, criterion)) {
        grades.push(
          await gradeDimension({ task, criterion, dimension, work }, this.judge, this.complete, ctx.signal),
        );
      }
      return gradedCriterion(criterion, grades, dimensionWeights(rubric), ctx.passThreshold);
    } catch (error) {
      // An unreachable or confused judge leaves the criterion for a human instead of failing the run.
      return pending(`judge failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
