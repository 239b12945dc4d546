import {
  type Annotation,
  type AnnotationEdit,
  type AnnotationInput,
  AnnotationInputSchema,
  AnnotationSchema,
  type AnnotationTimes,
  AnnotationTimesSchema,
} from '../core/annotation.ts';
import { HarnessEvalError } from '../core/errors.ts';
import { describeIssues, encodeDocument } from './documents.ts';

/**
 * How every store checks an annotation on the way in and reads it back: the same validation,
 * the same secret scrubbing as documents, and a damaged row fails naming its experiment.
 */

/** An annotation ready to be written: its trial, its time and its scrubbed JSON text. */
export interface AnnotationWrite {
  readonly runId: string;
  readonly createdAt: string;
  readonly document: string;
}

/** `times`: those of an annotation being restored or edited; a new one is written now. */
export function prepareAnnotation(
  experimentId: string,
  input: AnnotationInput,
  redact: (text: string) => string,
  times?: AnnotationTimes,
): AnnotationWrite {
  const parsed = AnnotationInputSchema.safeParse(input);
  if (!parsed.success)
    throw new HarnessEvalError(
      'invalid_input',
      `annotation of experiment ${experimentId} is not valid: ${describeIssues(parsed.error).join('; ')}`,
      { data: { experimentId } },
    );
  const given = times === undefined ? undefined : AnnotationTimesSchema.safeParse(times);
  if (given !== undefined && !given.success)
    throw new HarnessEvalError(
      'invalid_input',
      `annotation of experiment ${experimentId} is not valid: ${describeIssues(given.error).join('; ')}`,
      { data: { experimentId } },
    );
  const { run_id, label, note, author } = parsed.data;
  const createdAt = given?.data.created_at ?? new Date().toISOString();
  const updatedAt = given?.data.updated_at;
  return {
    runId: run_id,
    createdAt,
    document: encodeDocument(
      {
        label,
        note,
        author,
        created_at: createdAt,
        ...(updatedAt === undefined ? {} : { updated_at: updatedAt }),
      },
      redact,
      `annotation of run ${run_id} of experiment ${experimentId}`,
    ),
  };
}

/** The document an edit writes: the stored annotation's trial and time, the new text (checked, scrubbed). */
export function prepareAnnotationEdit(
  existing: Annotation,
  edit: AnnotationEdit,
  redact: (text: string) => string,
): string {
  const times = { created_at: existing.created_at, updated_at: new Date().toISOString() };
  return prepareAnnotation(existing.experiment_id, { ...edit, run_id: existing.run_id }, redact, times)
    .document;
}

export function unknownAnnotation(experimentId: string, id: number): HarnessEvalError {
  return new HarnessEvalError('not_found', `no annotation ${id} in experiment ${experimentId}`, {
    data: { experimentId, annotationId: id },
  });
}

export function decodeAnnotation(
  id: unknown,
  experimentId: string,
  runId: unknown,
  document: unknown,
): Annotation {
  let value: unknown;
  try {
    value = typeof document === 'string' ? JSON.parse(document) : undefined;
  } catch {
    value = undefined;
  }
  const parsed = AnnotationSchema.safeParse({
    ...(typeof value === 'object' && value !== null ? value : {}),
    id: typeof id === 'string' ? Number(id) : id,
    experiment_id: experimentId,
    run_id: runId,
  });
  if (!parsed.success)
    throw new HarnessEvalError('store', `a stored annotation of experiment ${experimentId} is corrupt`, {
      data: { experimentId },
    });
  return parsed.data;
}

export function unknownRun(experimentId: string, runId: string): HarnessEvalError {
  return new HarnessEvalError('not_found', `no trial ${runId} in experiment ${experimentId}`, {
    data: { experimentId, runId },
  });
}
