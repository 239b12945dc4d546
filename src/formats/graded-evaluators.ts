import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Diagnostic } from '../core/diagnostic.ts';
import { HarnessEvalError } from '../core/errors.ts';
import { gradedEvaluatorsAsCriteria, isGradedEvaluator } from '../core/graded-evaluators.ts';
import type { EvaluatorRef } from '../core/plugin-ref.ts';
import type { Rubric } from '../core/rubric.ts';
import type { Suite } from '../core/suite.ts';
import { located } from './issues.ts';
import { isRubricPath } from './option-checks.ts';
import { loadRubricInto } from './rubric-file.ts';

/**
 * The `llm_rubric` and `human` evaluators of a loaded suite as criteria (core/graded-evaluators.ts),
 * after loading the rubric files they name (relative to the file that names them). Returns the
 * converted suite and the rubric files read, or the problems, located at the file.
 */
export type GradedSuite =
  | { readonly ok: true; readonly suite: Suite; readonly files: readonly string[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

export function withGradedEvaluators(suite: Suite, file: string): GradedSuite {
  const rubrics = new Map<string, Rubric>();
  const files: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const known = (named: string) => suite.rubrics.some((r) => r.id === named || r.source === named);
  const resolveRubric = (ref: EvaluatorRef, holder: string): EvaluatorRef => {
    const named = ref.options['rubric'];
    if (!isGradedEvaluator(ref.name) || typeof named !== 'string' || known(named) || !isRubricPath(named))
      return ref;
    const path = resolve(dirname(holder), named);
    if (!existsSync(path)) return ref; // reported by the option checks, located
    loadRubricInto(path, rubrics, files, diagnostics);
    return { ...ref, options: { ...ref.options, rubric: path } };
  };
  const loaded: Suite = {
    ...suite,
    evaluators: suite.evaluators.map((ref) => resolveRubric(ref, file)),
    tasks: suite.tasks.map((task) => ({
      ...task,
      evaluators: task.evaluators.map((ref) => resolveRubric(ref, task.source?.file ?? file)),
    })),
  };
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  const withRubrics = { ...loaded, rubrics: [...loaded.rubrics, ...rubrics.values()] };
  try {
    return { ok: true, suite: gradedEvaluatorsAsCriteria(withRubrics), files };
  } catch (error) {
    if (!HarnessEvalError.is(error)) throw error;
    return { ok: false, diagnostics: [located(file, { line: 0, col: 0 }, [], error.message)] };
  }
}
