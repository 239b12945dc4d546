import { isBuiltinMetric, parseMetricAlias } from '../metrics/catalog.ts';
import type { MetricRegistry } from '../metrics/registry.ts';
import { metricForResult } from './per-task.ts';

/**
 * Whether a comparison of these metrics can run on trial records (a store's `listTrialRecords`:
 * records cut to what the built-in metrics read) and give what it gives on whole ones. A metric
 * the registry does not know is compared by its stored value only, so it reads no record; a
 * plugin's metric may read any field, so it needs whole records.
 */
export function trialRecordsSuffice(names: readonly string[], registry?: MetricRegistry): boolean {
  return names.every((name) => {
    if (metricForResult(name, registry) === undefined) return true;
    const scored = /^evaluator_score:/.test(name);
    return scored || isBuiltinMetric(parseMetricAlias(name).name);
  });
}

/**
 * The records a comparison of the `asked` metrics (plus those an experiment stores) reads from a
 * store: trial records when they suffice, else whole ones. The shape is the store's `RecordChoice`
 * (store/read-experiment.ts), written out here because compare/ does not import store/.
 */
export function comparisonRecords(
  asked: readonly string[] = [],
  registry?: MetricRegistry,
): { readonly trial: (metricNames: readonly string[]) => boolean } {
  return { trial: (stored) => trialRecordsSuffice([...asked, ...stored], registry) };
}
