import { CommitBatcher } from '../store/commit-batcher.ts';
import type { TrialQueue } from './trial-queue.ts';

/** A job whose trial's record is committed, to be completed. */
export interface DoneJob {
  readonly jobId: string;
  readonly experimentId: string;
}

/**
 * A worker's job completions, in batches: the ones that arrive while a batch is being completed go
 * together in the next one (as the store's group commit: no timer, a lone completion goes at once).
 * Each `complete` resolves true for one job of each experiment the batch left with no job waiting
 * or running: its caller is the one to see whether the experiment is finished.
 */
export class JobCompleter {
  readonly #batcher: CommitBatcher<DoneJob, boolean>;

  constructor(queue: TrialQueue) {
    const completeBatch = async (jobs: readonly DoneJob[]): Promise<boolean[]> => {
      const drained = new Set(await queue.complete(jobs.map((job) => job.jobId)));
      return jobs.map((job) => drained.delete(job.experimentId));
    };
    this.#batcher = new CommitBatcher<DoneJob, boolean>({
      writeBatch: completeBatch,
      writeOne: async (job) => (await completeBatch([job]))[0] === true,
      keys: (job) => [job.jobId],
    });
  }

  /** Call only once the job's record is committed: a kill before completing only repeats the trial. */
  complete(job: DoneJob): Promise<boolean> {
    return this.#batcher.add(job);
  }

  /** Resolves when every completion asked for has been tried. */
  idle(): Promise<void> {
    return this.#batcher.idle();
  }
}
