import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';

export interface RunProgress {
  readonly total: number;
  readonly done: number;
  readonly passed: number;
  readonly failed: number;
  readonly errored: number;
  readonly pending: number;
  /** Seconds since the run started. */
  readonly elapsed: number;
}

/** What the runner emits; the CLI turns these into a progress bar and streaming reporters. */
export type RunnerEvent =
  | {
      readonly type: 'run_start';
      readonly experiment: Experiment;
      readonly trials: number;
      readonly resumed: number;
    }
  | { readonly type: 'trial_start'; readonly taskId: string; readonly epoch: number }
  | {
      readonly type: 'trial_retry';
      readonly taskId: string;
      readonly epoch: number;
      readonly attempt: number;
      readonly error: string;
    }
  | { readonly type: 'trial_end'; readonly record: RunRecord; readonly progress: RunProgress }
  | { readonly type: 'interrupting'; readonly inFlight: number }
  /** The store refused a write even after waiting: the run stops as if interrupted. */
  | { readonly type: 'store_failed'; readonly error: string }
  | { readonly type: 'run_end'; readonly experiment: Experiment };

export type RunnerListener = (event: RunnerEvent) => void | Promise<void>;
