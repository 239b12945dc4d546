import type { ExperimentStore, StoredChildProcess } from '../store/index.ts';
import type { ChildGroupListener } from '../util/child-groups.ts';
import { stillRunning, thisProcess } from '../util/process-identity.ts';
import { killPids, taggedProcesses } from '../util/tagged-processes.ts';

/**
 * The process groups a run starts are written to its store while they live, so that what a
 * killed run (SIGKILL, a crash, the watchdog killed too) left behind can be found and ended by the
 * next run against the store or by `harnesseval runs cleanup`. Writes are queued in order and
 * never fail a trial: a store that cannot take them only loses this safety net.
 */
export function recordingListener(
  store: ExperimentStore,
  experimentId: string,
): ChildGroupListener & {
  /** Resolves once every queued write has been tried. */
  flush(): Promise<void>;
} {
  const owner = thisProcess();
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = (write: () => Promise<void>) => {
    queue = queue.then(write).catch(() => undefined);
  };
  return {
    started: (group) => enqueue(() => store.recordChildProcess(experimentId, { ...group, owner })),
    ended: (group) => enqueue(() => store.forgetChildProcess(experimentId, group.pid)),
    flush: async () => {
      await queue;
    },
  };
}

export interface EndedOrphans {
  /** Per experiment: recorded children whose run is gone, and how many processes were still running. */
  readonly experiments: ReadonlyMap<string, { readonly recorded: number; readonly killed: number }>;
  /** Processes signalled in all (group leaders and tagged processes). */
  readonly killed: number;
}

/** Whether a recorded child's run (the HarnessEval that started it) is gone. Another host's cannot be told. */
function orphaned(child: StoredChildProcess, host: string): boolean {
  return child.owner.host === host && !stillRunning(child.owner.pid, child.owner.started);
}

/**
 * Ends what runs that are gone left behind: for each recorded child whose HarnessEval no longer
 * runs (on this host), its process group (when the leader is still the recorded process) and
 * every process carrying its tag; then forgets it. Children of live runs are left alone.
 */
export async function endOrphans(store: ExperimentStore): Promise<EndedOrphans> {
  const host = thisProcess().host;
  const experiments = new Map<string, { recorded: number; killed: number }>();
  let killed = 0;
  for (const child of await store.listChildProcesses()) {
    if (!orphaned(child, host)) continue;
    let ended = 0;
    // The group id is the leader's pid: signal it only while that pid is still the recorded process.
    if (stillRunning(child.pid, child.started)) {
      try {
        process.kill(-child.pgid, 'SIGKILL');
        ended++;
      } catch {
        // gone meanwhile
      }
    }
    ended += killPids(await taggedProcesses(child.tag));
    killed += ended;
    const seen = experiments.get(child.experiment_id) ?? { recorded: 0, killed: 0 };
    experiments.set(child.experiment_id, { recorded: seen.recorded + 1, killed: seen.killed + ended });
    await store.forgetChildProcess(child.experiment_id, child.pid);
  }
  return { experiments, killed };
}
