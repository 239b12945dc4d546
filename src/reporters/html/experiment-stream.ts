import type { Experiment } from '../../core/experiment.ts';
import { overallScoreLabel } from '../record-view.ts';
import { collect, foldRun } from '../run-fold.ts';
import type { RecordPages, ReportWriter, TrialGlance } from '../types.ts';
import { jsonForScript } from './escape.ts';
import { type ExperimentHtmlOptions, experimentPage } from './experiment-page.ts';
import { annotationsByRun } from './sections/annotations.ts';
import { experimentChartsSection } from './sections/experiment-charts.ts';
import { summarySection } from './sections/summary.ts';
import { NO_TRIALS_HTML, taskRow, taskTableFrame } from './sections/task-table.ts';
import { trialData } from './trial-data.ts';

/** Where the trial rows go in the page text: no escaped markup or JSON can hold a NUL. */
const ROWS_MARK = '\u0000trial rows\u0000';
/** The end of the embedded data when it has no trials yet. */
const EMPTY_TRIALS = '"trials":[]}</script>';

/**
 * `renderExperimentHtml` of the experiment with its records, read from `pages`: the page around
 * the trials is made from the trials' glances (the charts plot one point per trial, so the glances
 * are held: tens of bytes a trial), then the table rows and each trial's data are written record
 * by record.
 */
export async function streamExperimentHtml(
  experiment: Experiment,
  pages: RecordPages,
  write: ReportWriter,
  options: ExperimentHtmlOptions = {},
): Promise<void> {
  const glances = await collect(pages.glances());
  const held: RecordPages = { ...pages, glances: () => fromArray(glances) };
  const fold = await foldRun(experiment, held, options.flaky === undefined ? {} : { flaky: options.flaky });
  const frame = taskTableFrame(glances.length);
  const page = experimentPage(experiment, options, {
    flaky: fold.flaky,
    summary: summarySection(experiment, {
      trials: fold.counts.total,
      outcomes: fold.outcomesSeen,
      overall: overallScoreLabel(fold.overall),
    }),
    charts: experimentChartsSection({ records: glances }),
    tasks: frame === undefined ? NO_TRIALS_HTML : `${frame.before}${ROWS_MARK}${frame.after}`,
    annotated: glances,
    trials: [],
  });
  const rowsAt = page.indexOf(ROWS_MARK);
  const dataAt = page.lastIndexOf(EMPTY_TRIALS);
  if (dataAt < 0 || (frame !== undefined && rowsAt < 0)) throw new Error('the page lost its trial slots');
  const flaky = new Set(fold.flaky.map((t) => t.task_id));
  const byRun = annotationsByRun(options.annotations ?? []);
  if (frame !== undefined) {
    await write(page.slice(0, rowsAt));
    let index = 0;
    for await (const record of pages.records()) {
      await write(`${index === 0 ? '' : '\n'}${taskRow(record, index, flaky, undefined)}`);
      index += 1;
    }
  }
  const dataOpen = dataAt + EMPTY_TRIALS.indexOf('[') + 1;
  await write(page.slice(frame === undefined ? 0 : rowsAt + ROWS_MARK.length, dataOpen));
  let first = true;
  for await (const record of pages.records()) {
    await write(`${first ? '' : ','}${jsonForScript(trialData(record, byRun.get(record.run_id)))}`);
    first = false;
  }
  await write(page.slice(dataOpen));
}

async function* fromArray(glances: readonly TrialGlance[]): AsyncIterable<TrialGlance> {
  yield* glances;
}
