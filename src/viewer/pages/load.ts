import { HarnessEvalError } from '../../core/errors.ts';
import type { Experiment } from '../../core/experiment.ts';
import type { ExperimentDocument } from '../../store/documents.ts';
import { type RecordChoice, readStoredExperiment } from '../../store/read-experiment.ts';
import { resolveExperimentId } from '../../store/resolve-id.ts';
import type { ExperimentStore } from '../../store/types.ts';

/**
 * The experiment an URL names (a full id or a unique prefix), or `not_found`; with `records`,
 * only the records it chooses (a comparison's trial records).
 */
export async function experimentById(
  store: ExperimentStore,
  id: string,
  records: RecordChoice = 'whole',
): Promise<Experiment> {
  const experiment = await readStoredExperiment(store, await resolveExperimentId(store, id), records);
  if (experiment === undefined) throw new HarnessEvalError('not_found', `no experiment ${id} in the store`);
  return experiment;
}

/** The experiment an URL names without its records (a page reads only the records it shows). */
export async function experimentDocumentById(
  store: ExperimentStore,
  id: string,
): Promise<ExperimentDocument> {
  const document = await store.getExperimentDocument(await resolveExperimentId(store, id));
  if (document === undefined) throw new HarnessEvalError('not_found', `no experiment ${id} in the store`);
  return document;
}
