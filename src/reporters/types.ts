import type { Annotation } from '../core/annotation.ts';
import type { Experiment } from '../core/experiment.ts';
import type { Outcome, RunRecord } from '../core/run-record.ts';
import type { FlakyTask } from '../metrics/flaky.ts';
import type { RunFold } from './run-fold.ts';

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
  /** People's labels and notes on trials, from the store (the HTML and Markdown reports show them). */
  readonly annotations?: readonly Annotation[];
  /**
   * The origin of a running viewer on this machine (`http://127.0.0.1:PORT`): the HTML report
   * links the experiment there. Never a URL with the viewer's token.
   */
  readonly viewerOrigin?: string;
  /**
   * Every trial's row on the console, however many there are (`--all`); without it a run of more
   * than `CONSOLE_ROW_LIMIT` trials shows only the rows that failed or errored. A file always
   * holds every row.
   */
  readonly allRows?: boolean;
}

/**
 * What a report reads of every trial without its output or trace: light enough to fold over a whole
 * run. `error_kind` is the record's own, else its adapter output's (as `recordErrorKind` reads it).
 */
export type TrialGlance = Pick<
  RunRecord,
  'run_id' | 'task_id' | 'epoch' | 'outcome' | 'scores' | 'duration_seconds' | 'cost_usd' | 'error_kind'
>;

/**
 * The records of a stored experiment, read a page at a time (never all at once), each in the
 * experiment's order (suite task, then epoch) and scrubbed of secrets like the report itself.
 */
export interface RecordPages {
  /** How many records there are (with one of `outcomes`, when given). */
  count(outcomes?: readonly Outcome[]): Promise<number>;
  /** The records (with one of `outcomes`; at most `limit`). */
  records(query?: {
    readonly outcomes?: readonly Outcome[];
    readonly limit?: number;
  }): AsyncIterable<RunRecord>;
  /** Every record's glance. */
  glances(): AsyncIterable<TrialGlance>;
  /**
   * The fold of every glance (`foldRun` with no options), when the caller made it already: `harnesseval
   * run` folds its trials as they finish, so its reports make no second pass over the store.
   */
  readonly folded?: RunFold;
}

/** Takes the next piece of a report's text (written to a file or the terminal in order). */
export type ReportWriter = (chunk: string) => Promise<void>;

/**
 * Renders an experiment. `report` returns the text and writes it when given a destination.
 * Streaming reporters (jsonl) also implement the optional lifecycle hooks. A reporter that also
 * implements `streamReport` lets `harnesseval run` with a store write its report from pages of
 * the store: memory then does not grow with the trials. Without it, `report` gets the experiment
 * with every record read back (the built-ins all implement it).
 */
export interface ReporterV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  /** File extensions that select this reporter for `-o FILE`. */
  readonly extensions: readonly string[];
  report(experiment: Experiment, options?: ReportOptions): Promise<string>;
  /**
   * Writes exactly the text `report` would return for the experiment with its records, in pieces
   * through `write`; the records come from `pages` (`experiment.records` is empty).
   */
  streamReport?(
    experiment: Experiment,
    pages: RecordPages,
    write: ReportWriter,
    options?: ReportOptions,
  ): Promise<void>;
  onRunStart?(experiment: Experiment, options?: ReportOptions): Promise<void>;
  onTrialEnd?(record: RunRecord): Promise<void>;
  onRunEnd?(experiment: Experiment): Promise<void>;
}

/**
 * A reporter a plugin contributes: a name, the file extensions that select it for `-o FILE`, and
 * `create()`, called once per report (streaming reporters keep per-run state).
 */
export interface ReporterDefinition {
  readonly name: string;
  /** With the dot: `.tsv` (matched case-insensitively). */
  readonly extensions: readonly string[];
  readonly description?: string;
  /** The contract its reporters implement; checked when it is registered. */
  readonly specificationVersion?: 'v1';
  create(): ReporterV1 | Promise<ReporterV1>;
}
