import { z } from 'zod';

/** Longest label: a short tag a reader filters by ("flaky-env", "needs-rubric"). */
export const ANNOTATION_LABEL_MAX = 64;
/** Longest note: a paragraph or two, not a document. */
export const ANNOTATION_NOTE_MAX = 10_000;

/**
 * What a person adds to one trial: a label, a note, or both, and who wrote it. Annotations are
 * kept beside the run records (a record stays what the run produced) and shown in reports.
 */
const AnnotationTextShape = {
  label: z
    .string()
    .trim()
    .max(ANNOTATION_LABEL_MAX)
    .regex(/^[^\r\n]*$/, 'a label is one line')
    .default(''),
  note: z.string().trim().max(ANNOTATION_NOTE_MAX).default(''),
  author: z.string().trim().min(1, 'a name is required').max(200),
};
const hasText = (a: { label: string; note: string }) => a.label !== '' || a.note !== '';
const HAS_TEXT = { message: 'give a label, a note or both', path: ['note'] };

export const AnnotationInputSchema = z
  .object({ run_id: z.string().min(1), ...AnnotationTextShape })
  .refine(hasText, HAS_TEXT);
export type AnnotationInput = z.input<typeof AnnotationInputSchema>;
/** A change to a stored annotation: its new label, note and author (its trial stays). */
export type AnnotationEdit = Omit<AnnotationInput, 'run_id'>;

/** A stored annotation: its number within the experiment (1, 2, … in the order written) and time. */
export const AnnotationSchema = z.object({
  id: z.number().int().positive(),
  experiment_id: z.string(),
  run_id: z.string(),
  label: z.string(),
  note: z.string(),
  author: z.string(),
  created_at: z.string(),
  /** When it was last edited (absent: never). */
  updated_at: z.string().optional(),
});
export type Annotation = z.infer<typeof AnnotationSchema>;

const AnnotationTimesShape = {
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }).optional(),
};
/** When an annotation was written and last edited: kept as they were when an export is restored. */
export const AnnotationTimesSchema = z.object(AnnotationTimesShape);
export type AnnotationTimes = z.infer<typeof AnnotationTimesSchema>;

/**
 * An annotation in an experiment export (`annotations[]` beside `records`): its trial, text,
 * author and times, checked as when it was written. Its id is not exported: each store numbers
 * the annotations it holds.
 */
export const ExportedAnnotationSchema = z
  .object({ run_id: z.string().min(1), ...AnnotationTextShape, ...AnnotationTimesShape })
  .refine(hasText, HAS_TEXT);
export type ExportedAnnotation = z.infer<typeof ExportedAnnotationSchema>;

/** What an export keeps of a stored annotation. */
export function exportedAnnotation(a: Annotation): ExportedAnnotation {
  const { run_id, label, note, author, created_at, updated_at } = a;
  return { run_id, label, note, author, created_at, ...(updated_at === undefined ? {} : { updated_at }) };
}
