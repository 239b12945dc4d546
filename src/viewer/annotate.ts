import type { Annotation } from '../core/annotation.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { ExperimentStore } from '../store/types.ts';
import { experimentDocumentById } from './pages/load.ts';

/**
 * Stores the annotation a viewer form sent (fields run_id, label, note, author). The store
 * checks it (`invalid_input` → 400, an unknown trial → 404); the experiment may be named by a prefix.
 */
export async function saveAnnotation(
  store: ExperimentStore,
  experimentId: string,
  form: URLSearchParams,
): Promise<Annotation> {
  const experiment = await experimentDocumentById(store, experimentId);
  return store.addAnnotation(experiment.id, {
    run_id: form.get('run_id') ?? '',
    label: form.get('label') ?? '',
    note: form.get('note') ?? '',
    author: form.get('author') ?? '',
  });
}

/** Replaces an annotation's label, note and author with the form's (the store checks them). */
export async function editAnnotation(
  store: ExperimentStore,
  experimentId: string,
  annotation: number,
  form: URLSearchParams,
): Promise<Annotation> {
  const experiment = await experimentDocumentById(store, experimentId);
  return store.updateAnnotation(experiment.id, annotation, {
    label: form.get('label') ?? '',
    note: form.get('note') ?? '',
    author: form.get('author') ?? '',
  });
}

/** Deletes an annotation; `not_found` when the experiment has none with that id. */
export async function removeAnnotation(
  store: ExperimentStore,
  experimentId: string,
  annotation: number,
): Promise<void> {
  const experiment = await experimentDocumentById(store, experimentId);
  if (!(await store.deleteAnnotation(experiment.id, annotation)))
    throw new HarnessEvalError('not_found', `no annotation ${annotation} in experiment ${experiment.id}`);
}
