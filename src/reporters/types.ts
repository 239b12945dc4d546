import type { Annotation } from '../core/annotation.ts';
import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { FlakyTask } from '../metrics/flaky.ts';

export interface ReportOptions {
  /** Write the text here too (parent folders are created). */
  readonly destination?: string;
  /** Colour for terminal reporters. */
  readonly color?: boolean;
  /** Terminal width for the console reporter. */
  readonly width?: number;
  /**
   * Tasks whose verdict flips between attempts of this harness version across stored runs
   * (the CLI finds them); without it, reports mark the tasks that flip between this run's epochs.
   */
  readonly flaky?: readonly FlakyTask[];
  /** People's labels and notes on trials, from the store (the HTML report shows them). */
  readonly annotations?: readonly Annotation[];
}

/**
 * Renders an experiment. `report` returns the text and writes it when given a destination.
 * Streaming reporters (jsonl) also implement the optional lifecycle hooks.
 */
export interface ReporterV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  /** File extensions that select this reporter for `-o FILE`. */
  readonly extensions: readonly string[];
  report(experiment: Experiment, options?: ReportOptions): Promise<string>;
  onRunStart?(experiment: Experiment, options?: ReportOptions): Promise<void>;
  onTrialEnd?(record: RunRecord): Promise<void>;
  onRunEnd?(experiment: Experiment): Promise<void>;
}
