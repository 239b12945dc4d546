import type { Experiment } from '../core/experiment.ts';
import type { ExperimentStore } from './types.ts';

/**
 * Which records to read of a stored experiment: `whole` (default), or `trial` records (cut to what
 * metrics and comparisons read, see trial-record.ts) when `trial` accepts the metric names the
 * experiment stores.
 */
export type RecordChoice = 'whole' | { readonly trial: (metricNames: readonly string[]) => boolean };

/**
 * A stored experiment with the records `records` chooses, or undefined when the store has none
 * of that id. Trial records are a few hundred bytes a trial where whole ones carry outputs and
 * traces: what lets `compare` and `timeline` hold many large experiments at once.
 */
export async function readStoredExperiment(
  store: ExperimentStore,
  id: string,
  records: RecordChoice = 'whole',
): Promise<Experiment | undefined> {
  if (records !== 'whole') {
    // The document first: an experiment that finishes in between then has every record its
    // stored metrics were computed from.
    const document = await store.getExperimentDocument(id);
    if (document === undefined) return undefined;
    if (records.trial(document.metrics.map((m) => m.name)))
      return { ...document, records: await store.listTrialRecords(id) };
  }
  return store.getExperiment(id);
}
