import type { ServerResponse } from 'node:http';
import { HarnessEvalError } from '../core/errors.ts';
import {
  GRADE_EXPORT_FORMATS,
  type GradeExportFormat,
  renderGradeExport,
} from '../reporters/grades-export.ts';
import type { ExperimentStore } from '../store/types.ts';
import { experimentById } from './pages/load.ts';

const TYPES: Record<GradeExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

function isFormat(format: string): format is GradeExportFormat {
  return (GRADE_EXPORT_FORMATS as readonly string[]).includes(format);
}

/** `/experiments/ID/grades.csv|jsonl`: the file `harnesseval grade export` writes, as a download. */
export async function downloadGrades(
  response: ServerResponse,
  store: ExperimentStore,
  id: string,
  format: string,
): Promise<void> {
  if (!isFormat(format)) throw new HarnessEvalError('usage', `format: expected csv or jsonl, got ${format}`);
  const experiment = await experimentById(store, id);
  const text = renderGradeExport(experiment, format);
  response.statusCode = 200;
  response.setHeader('Content-Type', TYPES[format]);
  // The id is the store's, but a header must not carry anything a filename cannot.
  const file = `${experiment.id.replace(/[^A-Za-z0-9._-]/g, '_')}-grades.${format}`;
  response.setHeader('Content-Disposition', `attachment; filename="${file}"`);
  response.end(text);
}
