import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { Rubric, RubricDimension } from '../core/rubric.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { Suite } from '../core/suite.ts';
import type { Task } from '../core/task.ts';
import type { MetricRegistry } from '../metrics/registry.ts';
import { type Aggregate, aggregateExperiment } from './experiment-aggregate.ts';
import { applyGrades } from './regrade.ts';
import { rubricForTask } from './rubric-lookup.ts';
import {
  awaitsGrade,
  criterionDimensions,
  dimensionWeights,
  humanGrade,
  isRubricLevel,
} from './rubric-score.ts';

// Saving a human grade, once for every place a person grades (`harnesseval grade`, the viewer):
// check it against the suite, store the rescored record, then recompute and store the experiment.

/** A rubric or human criterion of one trial that waits for a grade, with what a grader reads. */
export interface PendingCriterion {
  readonly record: RunRecord;
  readonly task: Task | undefined;
  readonly criterionId: string;
  readonly description: string;
  /** The rubric the criterion is graded on; undefined when none applies (it cannot be graded). */
  readonly rubric: Rubric | undefined;
  /** The dimensions to grade (the criterion's, else the rubric's); empty when no rubric applies. */
  readonly dimensions: readonly RubricDimension[];
}

/** Every pending rubric/human criterion, in record order (optionally of one task only). */
export function pendingCriteria(
  experiment: Pick<Experiment, 'records'>,
  suite: Suite,
  only: { readonly task?: string | undefined } = {},
): PendingCriterion[] {
  return experiment.records.flatMap((record) => {
    if (only.task !== undefined && record.task_id !== only.task) return [];
    const task = suite.tasks.find((t) => t.id === record.task_id);
    const rubric = rubricForTask(suite, task);
    return record.criteria.filter(awaitsGrade).map((c) => {
      const spec = task?.criteria.find((s) => s.id === c.id);
      return {
        record,
        task,
        criterionId: c.id,
        description: spec?.description ?? c.id,
        rubric,
        dimensions: criterionDimensions(rubric, spec),
      };
    });
  });
}

export interface GradeInput {
  readonly runId: string;
  readonly criterionId: string;
  /** Dimension name → level 1..4; dimensions left out keep their state. */
  readonly levels: Readonly<Record<string, number>>;
  readonly grader: string;
}

/** The store methods saving a grade needs (every `ExperimentStore` has them). */
export interface GradeStore {
  appendRecord(experimentId: string, record: RunRecord): Promise<void>;
  updateExperiment(experimentId: string, patch: Aggregate): Promise<void>;
}

/**
 * Saves a person's grades for one criterion of one trial: checks each level and dimension against
 * the suite, stores the rescored record, then recomputes the experiment's metrics, overall score and
 * outcome and stores them too. Returns the experiment as it now is. Fails with `invalid_input`
 * naming the field (`run_id`, `criterion`, `level.<dimension>`) when the grade does not fit.
 */
export async function saveGrades(
  store: GradeStore,
  experiment: Experiment,
  suite: Suite,
  input: GradeInput,
  /** Where the suite's metric names resolve: the set its `plugins:` were loaded into. */
  metrics?: MetricRegistry,
): Promise<Experiment> {
  const records = [...experiment.records];
  const index = records.findIndex((r) => r.run_id === input.runId);
  const record = records[index];
  if (record === undefined)
    throw new HarnessEvalError('invalid_input', `run_id: no trial ${input.runId} in ${experiment.id}`);
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
  const dimensions = criterionDimensions(
    rubric,
    task?.criteria.find((c) => c.id === input.criterionId),
  );
  const gradedAt = new Date().toISOString();
  const grades = Object.entries(input.levels).map(([dimension, level]) => {
    if (!dimensions.some((d) => d.name === dimension))
      throw new HarnessEvalError(
        'invalid_input',
        `level.${dimension}: not a dimension of ${input.criterionId}`,
      );
    if (!isRubricLevel(level))
      throw new HarnessEvalError('invalid_input', `level.${dimension}: expected 1, 2, 3 or 4, got ${level}`);
    return humanGrade(dimension, level, input.grader, gradedAt);
  });
  if (grades.length === 0)
    throw new HarnessEvalError('invalid_input', 'level: choose a level for at least one dimension');
  const graded = applyGrades(record, input.criterionId, grades, suite.scoring, dimensionWeights(rubric));
  records[index] = graded;
  await store.appendRecord(experiment.id, graded);
  const tasks = suite.tasks.filter((t) => experiment.suite.tasks.some((e) => e.id === t.id));
  const aggregate = aggregateExperiment({
    suite,
    records,
    tasks,
    epochs: experiment.settings.epochs,
    registry: metrics,
  });
  await store.updateExperiment(experiment.id, aggregate);
  return { ...experiment, records, ...aggregate };
}
