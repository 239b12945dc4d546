import type { RunRecord } from '../core/run-record.ts';
import { builtinMetricsOnly } from '../metrics/metric-record.ts';
import { type Aggregate, type AggregateInput, aggregateExperiment } from '../scoring/experiment-aggregate.ts';
import { ExperimentStream } from '../scoring/experiment-stream.ts';
import type { ExperimentStore } from '../store/types.ts';

/**
 * `aggregateExperiment` over the records `getExperiment` would give, read a page at a time and
 * folded (`ExperimentStream`, fed in that order: the same numbers), so that finishing a
 * 100,000-trial experiment holds a page of records, not the experiment. Trial records serve
 * unless the default choice of metrics (which asks whether a trial has a trace) or a plugin's
 * metric (which may read any field) needs whole ones; a plugin's metric without a fold needs
 * every record at once, and gets them.
 */
export async function aggregateStored(
  store: ExperimentStore,
  experimentId: string,
  input: Omit<AggregateInput, 'records'>,
): Promise<Aggregate> {
  const refs = input.metrics ?? input.suite.metrics;
  const whole = refs.length === 0 || !builtinMetricsOnly(refs);
  const stream = ExperimentStream.create({
    suite: input.suite,
    tasks: input.tasks.map((t) => ({ id: t.id, weight: t.weight, cluster: t.cluster })),
    epochs: input.epochs,
    metrics: input.metrics,
    registry: input.registry,
  });
  if (stream === undefined) {
    const records: RunRecord[] = [];
    await store.readRecordPages(experimentId, (page) => void records.push(...page), { whole: true });
    return aggregateExperiment({ ...input, records });
  }
  await store.readRecordPages(
    experimentId,
    (page) => {
      for (const record of page) stream.add(record);
    },
    { whole },
  );
  return stream.aggregate();
}
