import type { AgentOutput } from '../core/agent-output.ts';
import { outputText } from '../core/agent-output.ts';
import type { CriterionResult, Grade } from '../core/evaluation.ts';
import type { Rubric } from '../core/rubric.ts';
import type { Suite } from '../core/suite.ts';
import type { Criterion, Task } from '../core/task.ts';
import { aiSdkCompletion, type CompleteText, gradeDimension, selfJudgeProblem } from '../scoring/judge.ts';
import { type JudgeConfig, judgeAvailability } from '../scoring/judge-config.ts';
import { rubricForTask } from '../scoring/rubric-lookup.ts';
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
    const base = { id: criterion.id, verification: criterion.verification, details: {} };
    const pending = (reason: string): CriterionResult => ({
      ...base,
      status: 'pending',
      score: null,
      explanation: reason,
      grades: [],
    });
    if (criterion.verification === 'human') return pending('waiting for a human grade');
    const rubric = this.rubricFor(task);
    if (rubric === undefined) return pending('no rubric for this task');
    if (this.judge === undefined || this.complete === undefined)
      return pending(this.status.pendingReason ?? 'no judge');
    const selfJudge = selfJudgeProblem(this.judge, ctx.producerModels);
    if (selfJudge !== undefined)
      return { ...base, status: 'error', score: 0, explanation: selfJudge, grades: [] };
    const wanted = criterion.rubric_dimensions;
    const dimensions = rubric.dimensions.filter((d) => wanted === undefined || wanted.includes(d.name));
    // For a codebase task the work is the change: the diff against the starter, then the final message.
    const work =
      ctx.workspaceDiff !== undefined
        ? `${diffText(ctx.workspaceDiff)}\n\nFinal message:\n${outputText(output)}`
        : outputText(output);
    try {
      const grades: Grade[] = [];
      for (const dimension of dimensions) {
        grades.push(
          await gradeDimension({ task, criterion, dimension, work }, this.judge, this.complete, ctx.signal),
        );
      }
      const weight = dimensions.reduce((s, d) => s + d.weight, 0);
      const score =
        weight > 0 ? grades.reduce((s, g, i) => s + g.score * (dimensions[i]?.weight ?? 0), 0) / weight : 0;
      return {
        ...base,
        status: score >= ctx.passThreshold ? 'passed' : 'failed',
        score,
        explanation: grades.map((g) => `${g.dimension}: level ${g.level}`).join(', '),
        grades,
      };
    } catch (error) {
      // An unreachable or confused judge leaves the criterion for a human instead of failing the run.
      return pending(`judge failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
