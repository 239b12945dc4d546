import { z } from 'zod';
import { type ExportedAnnotation, ExportedAnnotationSchema } from '../core/annotation.ts';
import { type Experiment, ExperimentSchema } from '../core/experiment.ts';

/**
 * An experiment export file: the Experiment and, since annotations were exported, the people's
 * annotations on its trials. A file without `annotations` (older, or none written) has none; an
 * older reader ignores the key.
 */
export const ExperimentExportSchema = ExperimentSchema.extend({
  annotations: z.array(ExportedAnnotationSchema).default([]),
}).superRefine((value, ctx) => {
  const trials = new Set(value.records.map((r) => r.run_id));
  value.annotations.forEach((a, index) => {
    if (!trials.has(a.run_id))
      ctx.addIssue({
        code: 'custom',
        path: ['annotations', index, 'run_id'],
        message: `expected the run_id of one of the experiment's records, got ${JSON.stringify(a.run_id)}`,
      });
  });
});

export interface ExperimentExport {
  readonly experiment: Experiment;
  readonly annotations: readonly ExportedAnnotation[];
}
