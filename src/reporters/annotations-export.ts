import type { Annotation } from '../core/annotation.ts';
import type { RunRecord } from '../core/run-record.ts';
import { csvField, neutralizeFormula } from './csv.ts';
import type { GradeExportFormat } from './grades-export.ts';

/** One annotation with the trial it is on. */
export interface AnnotationRow {
  readonly experiment_id: string;
  readonly annotation_id: number;
  readonly run_id: string;
  readonly task_id: string;
  readonly epoch: number | null;
  readonly label: string;
  readonly note: string;
  readonly author: string;
  readonly created_at: string;
  /** Empty when it was never edited. */
  readonly updated_at: string;
}

export const ANNOTATION_COLUMNS = [
  'experiment_id',
  'annotation_id',
  'run_id',
  'task_id',
  'epoch',
  'label',
  'note',
  'author',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof AnnotationRow)[];

/** Every annotation, oldest first, with its trial's task and epoch (empty for a trial no longer stored). */
export function annotationRows(
  annotations: readonly Annotation[],
  trials: readonly Pick<RunRecord, 'run_id' | 'task_id' | 'epoch'>[],
): AnnotationRow[] {
  const byRun = new Map(trials.map((t) => [t.run_id, t]));
  return annotations.map((a) => ({
    experiment_id: a.experiment_id,
    annotation_id: a.id,
    run_id: a.run_id,
    task_id: byRun.get(a.run_id)?.task_id ?? '',
    epoch: byRun.get(a.run_id)?.epoch ?? null,
    label: a.label,
    note: a.note,
    author: a.author,
    created_at: a.created_at,
    updated_at: a.updated_at ?? '',
  }));
}

/**
 * The annotations as CSV (formula-looking cells neutralised, as the grade export does) or JSONL.
 * The CLI's `annotations export` and the viewer's download both call this.
 */
export function renderAnnotationExport(rows: readonly AnnotationRow[], format: GradeExportFormat): string {
  if (format === 'jsonl') return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
  const lines = rows.map((row) =>
    ANNOTATION_COLUMNS.map((column) => {
      const value = row[column];
      if (value === null) return '';
      return typeof value === 'number' ? String(value) : csvField(neutralizeFormula(value));
    }).join(','),
  );
  return `${[ANNOTATION_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
