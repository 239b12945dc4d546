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

/** Folds every glance of `pages` (one pass over the store's summaries). */
export async function foldRun(
  experiment: Experiment,
  pages: RecordPages,
  options: RunFoldOptions = {},
): Promise<RunFold> {
  const byOutcome = new Map<Outcome, number>();
  const attempts = new Map<string, { trials: number; passes: number }>();
  const kept = new Map<string, { index: number; glance: TrialGlance }>();
  // With no suite tasks the tally takes every task, each of weight 1 (what `overallScoreText` does).
  const suiteTasks = experiment.suite.tasks;
  const tally = new OverallScoreTally(suiteTasks);
  let total = 0;
  let durationSeconds = 0;
  let anyEpoch = false;
  for await (const glance of pages.glances()) {
    byOutcome.set(glance.outcome, (byOutcome.get(glance.outcome) ?? 0) + 1);
    durationSeconds += glance.duration_seconds;
    if (glance.epoch > 0) anyEpoch = true;
    if (glance.outcome !== 'pending') {
      const task = attempts.get(glance.task_id) ?? { trials: 0, passes: 0 };
      task.trials += 1;
      if (glance.outcome === 'pass') task.passes += 1;
      attempts.set(glance.task_id, task);
    }
    tally.add(glance);
    if (options.keep?.has(glance.run_id) === true) kept.set(glance.run_id, { index: total, glance });
    total += 1;
  }
  const overall = tally.result();
  const flaky =
    options.flaky ??
    [...attempts].flatMap(([id, a]) => {
      const one = flakyTask(id, a.trials, a.passes);
      return one === undefined ? [] : [{ ...one, runs: 1 }];
    });
  const count = (o: Outcome) => byOutcome.get(o) ?? 0;
  const expected = suiteTasks.length * experiment.settings.epochs;
  return {
    counts: {
      pass: count('pass'),
      fail: count('fail'),
      error: count('error'),
      pending: count('pending'),
      total,
      missing: Math.max(0, expected - total),
    },
    outcomesSeen: [...byOutcome],
    durationSeconds,
    withEpoch: experiment.settings.epochs > 1 || anyEpoch,
    flaky,
    overall,
    kept,
  };
}

/** The items gathered into an array: for the few rows a summary shows (bounded by a `limit`). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
