import type { Experiment } from '../core/experiment.ts';
import { type OverallScore, OverallScoreTally } from '../core/overall-score.ts';
import type { Outcome } from '../core/run-record.ts';
import { type FlakyTask, flakyTask } from '../metrics/flaky.ts';
import type { OutcomeCounts } from './record-view.ts';
import type { RecordPages, ReportOptions, TrialGlance } from './types.ts';

/**
 * What the streamed reports say about a run as a whole, folded over its trials' glances in the
 * experiment's order: each figure equals the one the whole-experiment renderers compute (sums in
 * the same order, flaky tasks in first-seen order). It grows with the tasks, not the trials.
 */
export interface RunFold {
  readonly counts: OutcomeCounts;
  /** Outcomes in the order they first appear (the HTML summary lists them so). */
  readonly outcomesSeen: readonly (readonly [Outcome, number])[];
  /** The trials' durations summed in order. */
  readonly durationSeconds: number;
  /** Whether the reports name trials with their epoch (`showsEpochs`). */
  readonly withEpoch: boolean;
  readonly flaky: readonly FlakyTask[];
  readonly overall: OverallScore;
  /** Position and name of the trials `keep` asked for (those with annotations). */
  readonly kept: ReadonlyMap<string, { readonly index: number; readonly glance: TrialGlance }>;
}

export interface RunFoldOptions extends Pick<ReportOptions, 'flaky'> {
  /** run_ids whose position and glance the fold keeps. */
  readonly keep?: ReadonlySet<string>;
}

/**
 * The fold of a run's glances, one at a time in the experiment's order: `foldRun` feeds it from
 * the store, and `harnesseval run` feeds it as its trials finish (in plan order), so the reports
 * need no second pass over the store.
 */
export class RunTally {
  readonly #byOutcome = new Map<Outcome, number>();
  readonly #attempts = new Map<string, { trials: number; passes: number }>();
  readonly #kept = new Map<string, { index: number; glance: TrialGlance }>();
  readonly #keep: ReadonlySet<string> | undefined;
  readonly #tally: OverallScoreTally;
  #total = 0;
  #durationSeconds = 0;
  #anyEpoch = false;

  constructor(
    private readonly experiment: Pick<Experiment, 'suite' | 'settings'>,
    keep?: ReadonlySet<string>,
  ) {
    this.#keep = keep;
    // With no suite tasks the tally takes every task, each of weight 1 (what `overallScoreText` does).
    this.#tally = new OverallScoreTally(experiment.suite.tasks);
  }

  add(glance: TrialGlance): void {
    this.#byOutcome.set(glance.outcome, (this.#byOutcome.get(glance.outcome) ?? 0) + 1);
    this.#durationSeconds += glance.duration_seconds;
    if (glance.epoch > 0) this.#anyEpoch = true;
    if (glance.outcome !== 'pending') {
      const task = this.#attempts.get(glance.task_id) ?? { trials: 0, passes: 0 };
      task.trials += 1;
      if (glance.outcome === 'pass') task.passes += 1;
      this.#attempts.set(glance.task_id, task);
    }
    this.#tally.add(glance);
    if (this.#keep?.has(glance.run_id) === true)
      this.#kept.set(glance.run_id, { index: this.#total, glance });
    this.#total += 1;
  }

  /** The figures of the glances added so far; `flaky` replaces the tasks that flip between this run's epochs. */
  result(flaky?: readonly FlakyTask[]): RunFold {
    const count = (o: Outcome) => this.#byOutcome.get(o) ?? 0;
    const expected = this.experiment.suite.tasks.length * this.experiment.settings.epochs;
    return {
      counts: {
        pass: count('pass'),
        fail: count('fail'),
        error: count('error'),
        pending: count('pending'),
        total: this.#total,
        missing: Math.max(0, expected - this.#total),
      },
      outcomesSeen: [...this.#byOutcome],
      durationSeconds: this.#durationSeconds,
      withEpoch: this.experiment.settings.epochs > 1 || this.#anyEpoch,
      flaky:
        flaky ??
        [...this.#attempts].flatMap(([id, a]) => {
          const one = flakyTask(id, a.trials, a.passes);
          return one === undefined ? [] : [{ ...one, runs: 1 }];
        }),
      overall: this.#tally.result(),
      kept: new Map(this.#kept),
    };
  }
}

/**
 * Folds every glance of `pages` (one pass over the store's summaries), or takes the fold the run
 * made as its trials finished (`pages.folded`) when no trial is to be kept.
 */
export async function foldRun(
  experiment: Experiment,
  pages: RecordPages,
  options: RunFoldOptions = {},
): Promise<RunFold> {
  if (pages.folded !== undefined && (options.keep === undefined || options.keep.size === 0))
    return options.flaky === undefined ? pages.folded : { ...pages.folded, flaky: options.flaky };
  const tally = new RunTally(experiment, options.keep);
  for await (const glance of pages.glances()) tally.add(glance);
  return tally.result(options.flaky);
}

/** The items gathered into an array: for the few rows a summary shows (bounded by a `limit`). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
