import type { RunRecord } from '../core/run-record.ts';
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

/** Every grade of the records, human and judge, in record order then criterion order. */
export function gradeRows(experimentId: string, records: readonly RunRecord[]): GradeRow[] {
  return records.flatMap((record) =>
    record.criteria.flatMap((criterion) =>
      criterion.grades.map((g) => ({
        experiment_id: experimentId,
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

/** One grade as a line of the export, its line end included. */
function gradeLine(row: GradeRow, format: GradeExportFormat): string {
  if (format === 'jsonl') return `${JSON.stringify(row)}\n`;
  const cells = GRADE_COLUMNS.map((column) => {
    const value = row[column];
    return typeof value === 'number' ? String(value) : csvField(neutralizeFormula(value));
  });
  return `${cells.join(',')}\r\n`;
}

/**
 * The grades of an experiment's records as CSV (a header, then one row per grade; text cells
 * that a spreadsheet would run as a formula are neutralised, see csv.ts) or JSONL (one object per
 * line), and how many grades. The records come a page at a time (store/record-pages.ts), so only
 * one page is held with the text. The CLI's `grade export` and the viewer's download both call this.
 */
export async function renderGradeExport(
  experimentId: string,
  pages: AsyncIterable<readonly RunRecord[]> | Iterable<readonly RunRecord[]>,
  format: GradeExportFormat,
): Promise<{ text: string; grades: number }> {
  let text = format === 'csv' ? `${GRADE_COLUMNS.join(',')}\r\n` : '';
  let grades = 0;
  for await (const records of pages) {
    for (const row of gradeRows(experimentId, records)) {
      text += gradeLine(row, format);
      grades += 1;
    }
  }
  return { text, grades };
}
