import { existsSync } from 'node:fs';
import type { Experiment } from '../core/experiment.ts';
import type { FlakinessRun } from '../metrics/flaky.ts';
import { storeKind } from '../store/location.ts';
import { openCliStore, storeLocation } from './store-location.ts';

/**
 * For each experiment, the other completed runs in the store of the same harness name, version
 * and suite: a task whose verdict differs between those runs is flaky even with one epoch each.
 * Without a store (comparing exported files) the flakiness comes from each run's epochs alone.
 */
export async function sameVersionRuns(
  experiments: readonly Experiment[],
  options: { readonly cwd: string; readonly store?: string | undefined; readonly env?: NodeJS.ProcessEnv },
): Promise<(FlakinessRun[] | undefined)[]> {
  const location = storeLocation(options.store, { cwd: options.cwd, env: options.env ?? process.env });
  if (storeKind(location) === 'sqlite' && !existsSync(location)) return experiments.map(() => undefined);
  const store = await openCliStore(location, { mustExist: true, readonly: true });
  try {
    const found: (FlakinessRun[] | undefined)[] = [];
    for (const e of experiments) {
      const summaries = await store.listExperiments({
        harness: e.harness.name,
        suite: e.suite.id,
        status: 'completed',
      });
      const runs: FlakinessRun[] = [];
      for (const s of summaries) {
        if (s.harness_version !== e.harness.version || s.id === e.id) continue;
        // The task and outcome of each trial are all flakiness reads: summaries, not whole records
        // (a store of many 10,000-trial runs of one version made `compare` read them all). A run
        // that is one of the experiments in hand (two runs of one version compared) is not read again.
        const inHand = experiments.find((x) => x.id === s.id);
        runs.push({ id: s.id, records: inHand?.records ?? (await store.listRecordSummaries(s.id)) });
      }
      found.push(runs);
    }
    return found;
  } finally {
    await store.close();
  }
}
