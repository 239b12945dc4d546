import { dirname } from 'node:path';
import { type AgentOutput, ANSWER_ERROR_KINDS } from '../core/agent-output.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { CriterionResult, EvaluationResult } from '../core/evaluation.ts';
import type { EvaluatorRef } from '../core/plugin-ref.ts';
import type { WorkspaceDiff } from '../core/run-record.ts';
import type { Suite } from '../core/suite.ts';
import type { Criterion, Task } from '../core/task.ts';
import {
  defaultEvaluatorRegistry,
  type EvaluatorRegistry,
  evaluatorsForTask,
} from '../evaluators/registry.ts';
import type { EvaluatorV1 } from '../evaluators/types.ts';
import type { SandboxV1 } from '../sandbox/types.ts';
import { pendingCriterion } from '../scoring/rubric-score.ts';
import type { RubricGrader } from './rubric-grader.ts';

/** The evaluator that checks an automated criterion: its own, or a `command` run in the workspace. */
function criterionRef(criterion: Criterion): EvaluatorRef | undefined {
  if (criterion.evaluator !== undefined) return criterion.evaluator;
  if (criterion.command !== undefined) {
    const options: Record<string, unknown> = { command: criterion.command };
    if (criterion.timeout_seconds !== undefined) options['timeout_seconds'] = criterion.timeout_seconds;
    return { name: 'command', options, negate: false };
  }
  return undefined;
}

/** What a trial's checks get beside the output. */
export interface CheckContext {
  readonly signal: AbortSignal;
  readonly workspace?: string | undefined;
  /** The harness's changes to the starter codebase, for rubric grading. */
  readonly workspaceDiff?: WorkspaceDiff | undefined;
  readonly producerModels: readonly string[];
  /** Commands of checks run in the trial's sandbox. */
  readonly sandbox?: SandboxV1 | undefined;
}

interface PreparedTask {
  readonly evaluators: readonly EvaluatorV1[];
  readonly criteria: ReadonlyMap<string, EvaluatorV1>;
  /** A check judges errors (`expect_error`): an answer error is this task's output, not a failed trial. */
  readonly expectsError: boolean;
}

/** What the checks of one trial found. */
export interface TrialJudgement {
  readonly evaluations: EvaluationResult[];
  readonly criteria: CriterionResult[];
  /** The output is an error the task expected to see judged, so the trial did not error. */
  readonly errorIsOutput: boolean;
}

/**
 * Compiles every evaluator a suite needs before the first trial, so that a bad option fails the
 * run at once (with the task named) instead of failing every trial.
 */
export class TrialChecks {
  private readonly prepared = new Map<string, PreparedTask>();

  private constructor(
    private readonly suite: Suite,
    private readonly rubrics: RubricGrader | undefined,
  ) {}

  static async prepare(
    suite: Suite,
    tasks: readonly Task[],
    env: NodeJS.ProcessEnv,
    rubrics?: RubricGrader,
    registry: EvaluatorRegistry = defaultEvaluatorRegistry,
  ): Promise<TrialChecks> {
    const checks = new TrialChecks(suite, rubrics);
    const cache = new Map<string, Promise<EvaluatorV1>>();
    const suiteDir = suite.source === undefined ? process.cwd() : dirname(suite.source.file);
    for (const task of tasks) {
      const baseDir = task.source === undefined ? suiteDir : dirname(task.source.file);
      const make = (ref: EvaluatorRef, where: string): Promise<EvaluatorV1> => {
        const key = `${baseDir}\u0000${JSON.stringify(ref)}`;
        const cached = cache.get(key);
        if (cached !== undefined) return cached;
        const created = registry.create(ref, { baseDir, env }).catch((error: unknown) => {
          throw new HarnessEvalError('invalid_config', `task ${task.id}: ${where}: ${messageOf(error)}`, {
            cause: error,
          });
        });
        cache.set(key, created);
        return created;
      };
      const evaluators = await Promise.all(
        evaluatorsForTask(suite.evaluators, task).map((ref) => make(ref, `evaluator ${ref.name}`)),
      );
      const criteria = new Map<string, EvaluatorV1>();
      for (const criterion of task.criteria) {
        if (criterion.verification !== 'automated') continue;
        const ref = criterionRef(criterion);
        if (ref !== undefined) criteria.set(criterion.id, await make(ref, `criterion ${criterion.id}`));
      }
      const expectsError = [...evaluators, ...criteria.values()].some((e) => e.judgesErrors === true);
      checks.prepared.set(task.id, { evaluators, criteria, expectsError });
    }
    return checks;
  }

  /** Runs the task's evaluators and automated criteria on one output; rubric and human criteria wait. */
  async check(task: Task, output: AgentOutput, ctx: CheckContext): Promise<TrialJudgement> {
    const prepared = this.prepared.get(task.id);
    if (prepared === undefined) throw new HarnessEvalError('internal', `task ${task.id} was not prepared`);
    const errorIsOutput =
      prepared.expectsError &&
      output.error !== undefined &&
      ANSWER_ERROR_KINDS.includes(output.error_kind ?? 'agent');
    const context = {
      task,
      output,
      signal: ctx.signal,
      errorIsOutput,
      ...(ctx.workspace === undefined ? {} : { workspace: ctx.workspace }),
      ...(ctx.sandbox === undefined ? {} : { sandbox: ctx.sandbox }),
    };
    const evaluations = await Promise.all(prepared.evaluators.map((e) => safeEvaluate(e, context)));
    const criteria: CriterionResult[] = [];
    for (const criterion of task.criteria) {
      criteria.push(
        criterion.verification === 'automated'
          ? await this.checkAutomated(criterion, prepared, context)
          : await this.gradeRubric(task, criterion, output, ctx),
      );
    }
    return { evaluations, criteria, errorIsOutput };
  }

  private async gradeRubric(
    task: Task,
    criterion: Criterion,
    output: AgentOutput,
    ctx: CheckContext,
  ): Promise<CriterionResult> {
    if (this.rubrics === undefined)
      return pendingCriterion(criterion, `waiting for a ${criterion.verification} grade`);
    return this.rubrics.grade(task, criterion, output, {
      ...ctx,
      passThreshold: this.suite.scoring.pass_threshold,
    });
  }

  private async checkAutomated(
    criterion: Criterion,
    prepared: PreparedTask,
    context: Parameters<EvaluatorV1['evaluate']>[0],
  ): Promise<CriterionResult> {
    const base = { id: criterion.id, verification: criterion.verification, grades: [], details: {} };
    const evaluator = prepared.criteria.get(criterion.id);
    if (evaluator === undefined) {
      return {
        ...base,
        status: 'error',
        score: 0,
        explanation: 'automated criterion has no evaluator or command',
      };
    }
    const result = await safeEvaluate(evaluator, context);
    const tail = result.details['output_tail'];
    return {
      ...base,
      status: result.error !== undefined ? 'error' : result.passed ? 'passed' : 'failed',
      score: result.score,
      explanation: result.explanation,
      ...(typeof tail === 'string' ? { output_tail: tail } : {}),
      details: { evaluator: result.evaluator, ...result.details },
    };
  }
}

/** An evaluator that throws is a bug in it, not in the harness: score 0 with the reason. */
async function safeEvaluate(
  evaluator: EvaluatorV1,
  context: Parameters<EvaluatorV1['evaluate']>[0],
): Promise<EvaluationResult> {
  try {
    return await evaluator.evaluate(context);
  } catch (error) {
    return {
      evaluator: evaluator.name,
      score: 0,
      passed: false,
      explanation: `evaluator failed: ${messageOf(error)}`,
      details: {},
      negated: false,
      error: messageOf(error),
    };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
