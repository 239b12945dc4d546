import type { Annotation } from '../core/annotation.ts';
import type { ExperimentStore } from '../store/types.ts';
import { experimentById } from './pages/load.ts';

/**
 * Stores the annotation a viewer form sent (fields run_id, label, note, author). The store
 * checks it (`invalid_input` → 400, an unknown trial → 404); the experiment may be named by a prefix.
 */
export async function saveAnnotation(
  store: ExperimentStore,
  experimentId: string,
  form: URLSearchParams,
): Promise<Annotation> {
  const experiment = await experimentById(store, experimentId);
  return store.addAnnotation(experiment.id, {
    run_id: form.get('run_id') ?? '',
    label: form.get('label') ?? '',
    note: form.get('note') ?? '',
    author: form.get('author') ?? '',
  });
}
