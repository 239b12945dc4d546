import type { ServerResponse } from 'node:http';
import { HarnessEvalError } from '../core/errors.ts';
import { annotationRows, renderAnnotationExport } from '../reporters/annotations-export.ts';
import {
  GRADE_EXPORT_FORMATS,
  type GradeExportFormat,
  renderGradeExport,
} from '../reporters/grades-export.ts';
import { recordPages } from '../store/record-pages.ts';
import type { ExperimentStore } from '../store/types.ts';
import { experimentDocumentById } from './pages/load.ts';

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

/** `/experiments/ID/grades.csv|jsonl`: the file `harnesseval grade export` writes, as a download. */
export async function downloadGrades(
  response: ServerResponse,
  store: ExperimentStore,
  id: string,
  format: string,
): Promise<void> {
  const checked = checkedFormat(format);
  const document = await experimentDocumentById(store, id);
  const { text } = await renderGradeExport(document.id, recordPages(store, document.id), checked);
  attachment(response, document.id, 'grades', checked, text);
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
