import { HarnessEvalError } from '../core/errors.ts';
import { type LeaseHolder, sameProcess } from '../store/run-bookkeeping.ts';
import type { ExperimentStore } from '../store/types.ts';
import { stillRunning, thisProcess } from '../util/process-identity.ts';

/**
 * One process runs an experiment at a time. Two `--resume`s of one experiment both ran every
 * missing trial (3,488 agent requests for 2,000 trials); now the second one is refused with the
 * first one's pid. A lease whose process is gone (killed, crashed) is taken over.
 */
export function leaseHolder(): LeaseHolder {
  return { ...thisProcess(), acquired_at: new Date().toISOString() };
}

/** Whether the process holding a lease still runs. Another host's process cannot be checked: it counts as running. */
export function holderAlive(holder: LeaseHolder, here: string): boolean {
  return holder.host !== here || stillRunning(holder.pid, holder.started);
}

/** Takes the experiment's lease for this process, or fails with `usage` naming the process that has it. */
export async function takeLease(store: ExperimentStore, experimentId: string): Promise<LeaseHolder> {
  const me = leaseHolder();
  let current = await store.acquireLease(experimentId, me);
  if (sameProcess(current, me)) return current;
  if (!holderAlive(current, me.host)) current = await store.acquireLease(experimentId, me, current);
  if (sameProcess(current, me)) return current;
  const where = current.host === me.host ? `pid ${current.pid}` : `pid ${current.pid} on ${current.host}`;
  throw new HarnessEvalError(
    'usage',
    `experiment ${experimentId} is being run by another harnesseval (${where}, since ${current.acquired_at}); wait for it to finish or stop it, then resume`,
    { data: { experimentId, holder: current } },
  );
}
