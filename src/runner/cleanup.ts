import { sameProcess } from '../store/run-bookkeeping.ts';
import type { ExperimentStore } from '../store/types.ts';
import { thisProcess } from '../util/process-identity.ts';
import { endOrphans } from './child-records.ts';
import { holderAlive, leaseHolder } from './lease.ts';

export interface CleanupReport {
  /** Per experiment: recorded processes whose run is gone, and how many of them still ran (now ended). */
  readonly orphans: ReadonlyMap<string, { readonly recorded: number; readonly killed: number }>;
  /** Processes signalled in all (group members and tagged escapees). */
  readonly killed: number;
  /** Experiments left `running` by a run that is gone, now marked `interrupted` (resumable). */
  readonly interrupted: readonly { readonly id: string; readonly suiteFile?: string | undefined }[];
}

/**
 * What `harnesseval runs cleanup` does: ends the processes that killed runs left behind (from the
 * records in the store) and marks the experiments those runs left `running` as `interrupted`, so
 * that they read as what they are and resume. Runs that are alive, or on another host, are left
 * alone; an experiment `running` without a lease (an older HarnessEval's) is left as it is.
 */
export async function cleanupStore(store: ExperimentStore): Promise<CleanupReport> {
  const { experiments: orphans, killed } = await endOrphans(store);
  const here = thisProcess().host;
  const interrupted: { id: string; suiteFile?: string | undefined }[] = [];
  for (const summary of await store.listExperiments({ status: 'running' })) {
    const me = leaseHolder();
    let current = await store.acquireLease(summary.id, me);
    if (sameProcess(current, me)) {
      await store.releaseLease(summary.id, me); // nobody held it: not ours to judge
      continue;
    }
    if (holderAlive(current, here)) continue;
    current = await store.acquireLease(summary.id, me, current);
    if (!sameProcess(current, me)) continue;
    await store.updateExperiment(summary.id, { status: 'interrupted' });
    await store.releaseLease(summary.id, me);
    // Only the suite file, for the resume command: the document, not every record.
    const document = await store.getExperimentDocument(summary.id);
    interrupted.push({ id: summary.id, suiteFile: document?.suite.file });
  }
  return { orphans, killed, interrupted };
}
