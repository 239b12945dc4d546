import { HarnessEvalError } from '../core/errors.ts';
import type { Grade } from '../core/evaluation.ts';
import type { Experiment } from '../core/experiment.ts';
import { type RubricDimension, rubricLevelScore } from '../core/rubric.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { Suite } from '../core/suite.ts';
import type { Task } from '../core/task.ts';
import { loadSuite } from '../formats/index.ts';
import { aggregateExperiment } from '../runner/aggregate.ts';
import { applyGrades } from '../scoring/regrade.ts';
import { rubricForTask } from '../scoring/rubric-lookup.ts';
import type { ExperimentStore } from '../store/types.ts';

/** A rubric or human criterion of one trial that waits for a grade, with what a grader reads. */
export interface PendingCriterion {
  readonly record: RunRecord;
  readonly task: Task | undefined;
  readonly criterionId: string;
  readonly description: string;
  /** The dimensions to grade (the criterion's, else the rubric's); empty when no rubric applies. */
  readonly dimensions: readonly RubricDimension[];
}

/** The suite the experiment ran: grading needs its rubrics' levels and its scoring. */
export async function suiteOf(experiment: Experiment): Promise<Suite> {
  if (experiment.suite.file === undefined)
    throw new HarnessEvalError('not_found', `experiment ${experiment.id} does not name its suite file`);
  return loadSuite(experiment.suite.file);
}

function dimensionsFor(
  suite: Suite,
  task: Task | undefined,
  criterionId: string,
): readonly RubricDimension[] {
  const rubric = rubricForTask(suite, task);
  const spec = task?.criteria.find((c) => c.id === criterionId);
  return (rubric?.dimensions ?? []).filter(
    (d) => spec?.rubric_dimensions === undefined || spec.rubric_dimensions.includes(d.name),
  );
}

/** Every pending rubric/human criterion, in record order (what `harnesseval grade` asks, in its order). */
export function pendingCriteria(experiment: Experiment, suite: Suite): PendingCriterion[] {
  return experiment.records.flatMap((record) => {
    const task = suite.tasks.find((t) => t.id === record.task_id);
    return record.criteria
      .filter((c) => c.status === 'pending' && c.verification !== 'automated')
      .map((c) => ({
        record,
        task,
        criterionId: c.id,
        description: task?.criteria.find((s) => s.id === c.id)?.description ?? c.id,
        dimensions: dimensionsFor(suite, task, c.id),
      }));
  });
}

export interface GradeInput {
  readonly runId: string;
  readonly criterionId: string;
  /** Dimension name → level 1..4; dimensions left out keep their state. */
  readonly levels: Readonly<Record<string, number>>;
  readonly grader: string;
}

/**
 * Saves human grades for one criterion the way `harnesseval grade` does: the record is rescored
 * and replaced, then the experiment's metrics and overall score are recomputed and stored.
 * Returns the new overall score (undefined when the suite has none).
 */
export async function saveGrades(
  store: ExperimentStore,
  experimentId: string,
  input: GradeInput,
): Promise<number | undefined> {
  const experiment = await store.getExperiment(experimentId);
  if (experiment === undefined)
    throw new HarnessEvalError('not_found', `no experiment ${experimentId} in the store`);
  const suite = await suiteOf(experiment);
  const records = [...experiment.records];
  const index = records.findIndex((r) => r.run_id === input.runId);
  const record = records[index];
  if (record === undefined)
    throw new HarnessEvalError('invalid_input', `run_id: no trial ${input.runId} in ${experimentId}`);
  const criterion = record.criteria.find((c) => c.id === input.criterionId);
  if (criterion === undefined || criterion.verification === 'automated')
    throw new HarnessEvalError(
      'invalid_input',
      `criterion: ${input.criterionId} is not a rubric or human criterion of ${input.runId}`,
    );
  const task = suite.tasks.find((t) => t.id === record.task_id);
  const rubric = rubricForTask(suite, task);
  if (rubric === undefined)
    throw new HarnessEvalError('invalid_input', `criterion: no rubric for task ${record.task_id}`);
  const dimensions = dimensionsFor(suite, task, input.criterionId);
  const gradedAt = new Date().toISOString();
  const grades: Grade[] = Object.entries(input.levels).map(([dimension, level]) => {
    if (!dimensions.some((d) => d.name === dimension))
      throw new HarnessEvalError(
        'invalid_input',
        `level.${dimension}: not a dimension of ${input.criterionId}`,
      );
    if (level !== 1 && level !== 2 && level !== 3 && level !== 4)
      throw new HarnessEvalError('invalid_input', `level.${dimension}: expected 1, 2, 3 or 4, got ${level}`);
    return {
      dimension,
      level,
      score: rubricLevelScore(level),
      rationale: '',
      grader: input.grader,
      grader_kind: 'human',
      graded_at: gradedAt,
    };
  });
  if (grades.length === 0)
    throw new HarnessEvalError('invalid_input', 'level: choose a level for at least one dimension');
  const weights = Object.fromEntries(rubric.dimensions.map((d) => [d.name, d.weight]));
  records[index] = applyGrades(record, input.criterionId, grades, suite.scoring, weights);
  await store.appendRecord(experiment.id, records[index]);
  const tasks = suite.tasks.filter((t) => experiment.suite.tasks.some((e) => e.id === t.id));
  const aggregate = aggregateExperiment({ suite, records, tasks, epochs: experiment.settings.epochs });
  await store.updateExperiment(experiment.id, aggregate);
  return aggregate.scores['overall'];
}
