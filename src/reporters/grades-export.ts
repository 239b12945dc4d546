import type { Experiment } from '../core/experiment.ts';
import { csvField, neutralizeFormula } from './csv.ts';

/** The two formats of a grade export. */
export const GRADE_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type GradeExportFormat = (typeof GRADE_EXPORT_FORMATS)[number];

/** One grade on one rubric dimension of one criterion of one trial. */
export interface GradeRow {
  readonly experiment_id: string;
  readonly run_id: string;
  readonly task_id: string;
  readonly epoch: number;
  readonly criterion: string;
  readonly dimension: string;
  readonly level: number;
  readonly score: number;
  readonly grader: string;
  readonly grader_kind: 'human' | 'llm';
  readonly rationale: string;
  readonly graded_at: string;
  /** The judge model of an llm grade (empty for a human). */
  readonly judge_model: string;
}

export const GRADE_COLUMNS = [
  'experiment_id',
  'run_id',
  'task_id',
  'epoch',
  'criterion',
  'dimension',
  'level',
  'score',
  'grader',
  'grader_kind',
  'rationale',
  'graded_at',
  'judge_model',
] as const satisfies readonly (keyof GradeRow)[];

/** Every grade of the experiment, human and judge, in record order then criterion order. */
export function gradeRows(experiment: Experiment): GradeRow[] {
  return experiment.records.flatMap((record) =>
    record.criteria.flatMap((criterion) =>
      criterion.grades.map((g) => ({
        experiment_id: experiment.id,
        run_id: record.run_id,
        task_id: record.task_id,
        epoch: record.epoch,
        criterion: criterion.id,
        dimension: g.dimension,
        level: g.level,
        score: g.score,
        grader: g.grader,
        grader_kind: g.grader_kind,
        rationale: g.rationale,
        graded_at: g.graded_at,
        judge_model: g.judge_model ?? '',
      })),
    ),
  );
}

/**
 * The grades as CSV (a header, then one row per grade; text cells that a spreadsheet would run
 * as a formula are neutralised, see csv.ts) or JSONL (one object per line). The CLI's
 * `grade export` and the viewer's download both call this.
 */
export function renderGradeExport(experiment: Experiment, format: GradeExportFormat): string {
  const rows = gradeRows(experiment);
  if (format === 'jsonl') return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
  const lines = rows.map((row) =>
    GRADE_COLUMNS.map((column) => {
      const value = row[column];
      return typeof value === 'number' ? String(value) : csvField(neutralizeFormula(value));
    }).join(','),
  );
  return `${[GRADE_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
