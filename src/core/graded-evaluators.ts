import { HarnessEvalError } from './errors.ts';
import { type JudgeConfig, JudgeConfigSchema } from './judge.ts';
import type { EvaluatorRef } from './plugin-ref.ts';
import type { Rubric } from './rubric.ts';
import type { Suite } from './suite.ts';
import type { Criterion, Task } from './task.ts';

/**
 * `llm_rubric` and `human` are evaluators in the seed-000 catalogue, but neither can decide a trial
 * when it ends: a judge grades rubric dimensions, a person grades later. So each becomes what the
 * seed-004 model already has for that, a criterion of every task it applies to (`verification:
 * rubric` or `human`): graded by the judge like any rubric criterion, pending until `harnesseval
 * grade` otherwise, and counted in the rubric part of the score.
 */
export const GRADED_EVALUATORS = ['llm_rubric', 'human'] as const;

export function isGradedEvaluator(name: string): boolean {
  return (GRADED_EVALUATORS as readonly string[]).includes(name);
}

/** The rubric an `llm_rubric` or `human` evaluator grades on when its task has none: does the work do what was asked. */
export const DEFAULT_REVIEW_RUBRIC: Rubric = {
  id: 'meets-instructions',
  dimensions: [
    {
      name: 'meets_instructions',
      weight: 1,
      levels: {
        1: 'does not do what was asked',
        2: 'partly does what was asked; major gaps',
        3: 'does what was asked with minor issues',
        4: 'fully does what was asked',
      },
      examples: [],
    },
  ],
};

function text(options: Record<string, unknown>, key: string): string | undefined {
  const value = options[key];
  return typeof value === 'string' ? value : undefined;
}

function invalid(message: string): HarnessEvalError {
  return new HarnessEvalError('invalid_config', message);
}

/** The judge an `llm_rubric` evaluator names (with its samples and self-judge setting), if any. */
function judgeOf(ref: EvaluatorRef): JudgeConfig | undefined {
  const judge = ref.options['judge'];
  if (judge === undefined) return undefined;
  const parsed = JudgeConfigSchema.safeParse({
    ...(typeof judge === 'object' && judge !== null ? judge : {}),
    ...(ref.options['samples'] === undefined ? {} : { samples: ref.options['samples'] }),
    ...(ref.options['allow_self_judge'] === undefined
      ? {}
      : { allow_self_judge: ref.options['allow_self_judge'] }),
  });
  if (!parsed.success) throw invalid(`llm_rubric: judge: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

function sameJudge(a: JudgeConfig, b: JudgeConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

interface Conversion {
  judge: JudgeConfig | undefined;
  needsReviewRubric: boolean;
}

function findRubric(suite: Suite, named: string): Rubric | undefined {
  return suite.rubrics.find((r) => r.id === named || r.source === named);
}

function uniqueId(wanted: string, taken: Set<string>): string {
  let id = wanted;
  for (let n = 2; taken.has(id); n++) id = `${wanted}-${n}`;
  taken.add(id);
  return id;
}

/** A criterion checked by `llm_rubric` or `human` is a rubric or human criterion. */
function gradedCriterion(criterion: Criterion): Criterion {
  const ref = criterion.evaluator;
  if (ref === undefined || !isGradedEvaluator(ref.name)) return criterion;
  const { evaluator: _graded, ...rest } = criterion;
  const dimensions = ref.options['dimensions'];
  return {
    ...rest,
    verification: ref.name === 'human' ? 'human' : 'rubric',
    ...(Array.isArray(dimensions) ? { rubric_dimensions: dimensions.map(String) } : {}),
  };
}

function usesGraded(task: Task): boolean {
  return (
    task.evaluators.some((r) => isGradedEvaluator(r.name)) ||
    task.criteria.some((c) => c.evaluator !== undefined && isGradedEvaluator(c.evaluator.name))
  );
}

function convertTask(suite: Suite, task: Task, suiteRefs: readonly EvaluatorRef[], state: Conversion): Task {
  const graded = (ref: EvaluatorRef | undefined): ref is EvaluatorRef =>
    ref !== undefined && isGradedEvaluator(ref.name);
  // Evaluators become new criteria; a criterion that names one already is a criterion.
  const added = [...suiteRefs, ...task.evaluators.filter(graded)];
  const named = task.criteria.map((c) => c.evaluator).filter(graded);
  if (added.length === 0 && named.length === 0) return task;
  let rubric = task.rubric;
  for (const ref of [...added, ...named]) {
    if (ref.negate) throw invalid(`task ${task.id}: ${ref.name} cannot be negated`);
    rubric = rubricFor(suite, task, ref, rubric);
    if (ref.name === 'llm_rubric') {
      const judge = judgeOf(ref);
      if (judge !== undefined) {
        if (state.judge !== undefined && !sameJudge(state.judge, judge))
          throw invalid('llm_rubric: two different judges; a suite has one judge (give it once, or --judge)');
        state.judge = judge;
      }
    }
  }
  const taken = new Set(task.criteria.map((c) => c.id));
  const criteria: Criterion[] = task.criteria.map(gradedCriterion);
  for (const ref of added) {
    const dimensions = ref.options['dimensions'];
    criteria.push({
      id: uniqueId(ref.label ?? ref.name, taken),
      description:
        ref.name === 'human'
          ? (text(ref.options, 'instructions') ?? 'a person grades the output')
          : 'a judge model grades the output against the rubric',
      type: 'quality',
      verification: ref.name === 'human' ? 'human' : 'rubric',
      ...(Array.isArray(dimensions) ? { rubric_dimensions: dimensions.map(String) } : {}),
      weight: 1,
    });
  }
  if (rubric === undefined && findRubricFor(suite) === undefined) {
    state.needsReviewRubric = true;
    rubric = DEFAULT_REVIEW_RUBRIC.id;
  }
  return {
    ...task,
    criteria,
    evaluators: task.evaluators.filter((r) => !isGradedEvaluator(r.name)),
    ...(rubric === undefined ? {} : { rubric }),
  };
}

/** The rubric the task is graded on once `ref` is added: the one it names, which must agree with the task's. */
function rubricFor(
  suite: Suite,
  task: Task,
  ref: EvaluatorRef,
  current: string | undefined,
): string | undefined {
  const named = text(ref.options, 'rubric');
  if (named === undefined) return current;
  const found = findRubric(suite, named);
  if (found === undefined) throw invalid(`task ${task.id}: ${ref.name}: no rubric "${named}" in the suite`);
  if (current !== undefined && findRubric(suite, current) !== found)
    throw invalid(
      `task ${task.id}: ${ref.name} names rubric "${named}", but the task is graded on "${current}"`,
    );
  return found.source ?? found.id;
}

/** The suite's only rubric, which a task naming none is graded on. */
function findRubricFor(suite: Suite): Rubric | undefined {
  return suite.rubrics.length === 1 ? suite.rubrics[0] : undefined;
}

/**
 * The suite with every `llm_rubric` and `human` evaluator turned into a criterion of each task it
 * applies to (the suite's apply to every task). An `llm_rubric` judge becomes the suite's judge.
 * Idempotent; the suite is returned unchanged when it has none.
 * @throws HarnessEvalError('invalid_config') for an unknown rubric, two rubrics on one task or two judges
 */
export function gradedEvaluatorsAsCriteria(suite: Suite): Suite {
  const suiteRefs = suite.evaluators.filter((r) => isGradedEvaluator(r.name));
  const anyTask = suite.tasks.some(usesGraded);
  if (suiteRefs.length === 0 && !anyTask) return suite;
  const state: Conversion = { judge: suite.judge, needsReviewRubric: false };
  const tasks = suite.tasks.map((task) => convertTask(suite, task, suiteRefs, state));
  const hasReview = suite.rubrics.some((r) => r.id === DEFAULT_REVIEW_RUBRIC.id);
  return {
    ...suite,
    tasks,
    evaluators: suite.evaluators.filter((r) => !isGradedEvaluator(r.name)),
    rubrics:
      state.needsReviewRubric && !hasReview ? [...suite.rubrics, DEFAULT_REVIEW_RUBRIC] : suite.rubrics,
    ...(state.judge === undefined ? {} : { judge: state.judge }),
  };
}
