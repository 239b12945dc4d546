import type { ServerResponse } from 'node:http';
import { HarnessEvalError } from '../core/errors.ts';
import { annotationRows, renderAnnotationExport } from '../reporters/annotations-export.ts';
import {
  GRADE_EXPORT_FORMATS,
  type GradeExportFormat,
  gradeExportHead,
  gradeExportLines,
  gradeRows,
  renderGradeExport,
} from '../reporters/grades-export.ts';
import type { ExperimentStore } from '../store/types.ts';
import { experimentById, experimentDocumentById } from './pages/load.ts';

const TYPES: Record<GradeExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

function isFormat(format: string): format is GradeExportFormat {
  return (GRADE_EXPORT_FORMATS as readonly string[]).includes(format);
}

function attachment(
  response: ServerResponse,
  experimentId: string,
  what: string,
  format: GradeExportFormat,
  text: string,
): void {
  response.statusCode = 200;
  response.setHeader('Content-Type', TYPES[format]);
  // The id is the store's, but a header must not carry anything a filename cannot.
  const file = `${experimentId.replace(/[^A-Za-z0-9._-]/g, '_')}-${what}.${format}`;
  response.setHeader('Content-Disposition', `attachment; filename="${file}"`);
  response.end(text);
}

function checkedFormat(format: string): GradeExportFormat {
  if (!isFormat(format)) throw new HarnessEvalError('usage', `format: expected csv or jsonl, got ${format}`);
  return format;
}

/**
 * Trials read at a time for a grade download: large, since each windowed read orders the
 * experiment's rows again; small enough that 10,000 trials are not held at once.
 */
const GRADE_PAGE = 2_500;

/**
 * `/experiments/ID/grades.csv|jsonl`: the file `harnesseval grade export` writes, as a download.
 * Read a page of trials at a time, so a 10,000-trial experiment's records are never held at once
 * (only its grade lines are). A page that is not the trials the summaries listed (a run wrote
 * meanwhile) makes it read the experiment whole instead: never a trial twice or none.
 */
export async function downloadGrades(
  response: ServerResponse,
  store: ExperimentStore,
  id: string,
  format: string,
): Promise<void> {
  const checked = checkedFormat(format);
  const document = await experimentDocumentById(store, id);
  const runs = (await store.listRecordSummaries(document.id)).map((s) => s.run_id);
  const lines: string[] = [];
  for (let offset = 0; offset < runs.length; offset += GRADE_PAGE) {
    const records = await store.listRecords(document.id, { offset, limit: GRADE_PAGE });
    const expected = runs.slice(offset, offset + GRADE_PAGE);
    if (records.length !== expected.length || records.some((r, i) => r.run_id !== expected[i])) {
      const whole = await experimentById(store, document.id);
      attachment(response, whole.id, 'grades', checked, renderGradeExport(whole, checked));
      return;
    }
    lines.push(gradeExportLines(gradeRows({ id: document.id, records }), checked));
  }
  attachment(response, document.id, 'grades', checked, gradeExportHead(checked) + lines.join(''));
}

/** `/experiments/ID/annotations.csv|jsonl`: the file `harnesseval annotations export` writes. */
export async function downloadAnnotations(
  response: ServerResponse,
  store: ExperimentStore,
  id: string,
  format: string,
): Promise<void> {
  const checked = checkedFormat(format);
  const document = await experimentDocumentById(store, id);
  const rows = annotationRows(
    await store.listAnnotations(document.id),
    await store.listRecordSummaries(document.id),
  );
  attachment(response, document.id, 'annotations', checked, renderAnnotationExport(rows, checked));
}
