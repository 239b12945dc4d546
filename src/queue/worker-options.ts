import type { RunRecord } from '../core/run-record.ts';
import type { PluginSet } from '../plugins/set.ts';
import type { SuiteLoader } from './queued-experiment.ts';
import type { QueueStore } from './trial-job.ts';
import type { TrialQueue } from './trial-queue.ts';

/** What a worker reports; the CLI prints it. */
export type WorkerEvent =
  | {
      readonly type: 'trial_start';
      readonly experimentId: string;
      readonly key: string;
      readonly retry: number;
    }
  | {
      readonly type: 'trial_stored';
      readonly experimentId: string;
      readonly record: RunRecord;
      /** False when the trial already had a record (a retried job whose first worker committed). */
      readonly first: boolean;
    }
  /** The job went back to the queue: the worker refused it, or could not run or store it. */
  | { readonly type: 'job_failed'; readonly experimentId: string | undefined; readonly error: string }
  | { readonly type: 'experiment_finished'; readonly experimentId: string }
  /**
   * `runs cancel` stopped the experiment (`cancelled`), or `runs delete` deleted it and its jobs
   * (`deleted`): its trials here were stopped, and none of it starts.
   */
  | {
      readonly type: 'experiment_cancelled';
      readonly experimentId: string;
      readonly reason: 'cancelled' | 'deleted';
    };

export interface WorkerOptions {
  readonly store: QueueStore;
  readonly queue: TrialQueue;
  /** Trials run at once. */
  readonly concurrency: number;
  /** This worker's tags: it takes a job only when it has every tag the job asks for. */
  readonly tags?: readonly string[];
  /** The checkout's root: queue plans name the suite and harness relative to it. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly loadSuite: SuiteLoader;
  /**
   * The plugins every experiment starts with (the CLI's `--plugin` modules); each experiment
   * loads its suite's `plugins:` into a copy of its own. The default set when absent.
   */
  readonly plugins?: PluginSet;
  /** Aborting it stops taking jobs; the trials in flight finish and are stored. */
  readonly signal?: AbortSignal;
  /** Aborting it abandons the trials in flight: their jobs go back to the queue, nothing is stored. */
  readonly stopNow?: AbortSignal;
  readonly onEvent?: (event: WorkerEvent) => void;
  /** How long a worker with a free slot waits before asking a queue that had no job for it again (default 500 ms). */
  readonly pollMs?: number;
  /**
   * At most this many jobs taken ahead of the free slots (default: the concurrency); how many are
   * taken follows the rate trials finish at (prefetch.ts), so none when trials are long. 0: none.
   */
  readonly prefetch?: number;
  /** Jobs are taken ahead for the slots that free within this many ms at the recent rate (default 40). */
  readonly prefetchHorizonMs?: number;
  /** At most this many experiments' suites, agents and gateways stay open between their jobs (default 8). */
  readonly openExperiments?: number;
  /** How often expired jobs (their worker died) are put back in the queue (default 2,000 ms). */
  readonly expireEveryMs?: number;
  /** How often the worker asks whether the jobs it holds were cancelled (default 1,000 ms). */
  readonly cancelCheckEveryMs?: number;
}
