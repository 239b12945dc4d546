import type { Experiment } from '../../core/experiment.ts';
import type { RunRecord } from '../../core/run-record.ts';
import { isJsonReporter } from '../../reporters/json.ts';
import type { RecordPages, ReporterV1, ReportOptions } from '../../reporters/types.ts';
import type { ExperimentStore } from '../../store/types.ts';
import { EXIT } from '../exit.ts';
import { useColor } from '../io.ts';
import { storePages, streamWriter, writeReportFile, writeSpooledJson } from '../report-pages.ts';
import type { RunSpool } from '../run-spool.ts';
import { continuation } from '../run-stop.ts';
import { chosenStore, shownStore } from '../store-location.ts';
import type { RunInvocation } from './run-action.ts';

/** Where the reports of a finished run read its records from. */
export type RunRecords =
  /** `experiment.records` holds them all (no store, or a caller that read them). */
  | { readonly from: 'experiment' }
  /**
   * The store holds them (the run streamed them there): reporters with `streamReport` read pages,
   * the others get the experiment read back whole. `kept` are the workspaces the run kept (from its
   * trial_end events); without it (queue workers ran the trials) a pass over the records finds them
   * when workspaces were kept.
   */
  | {
      readonly from: 'store';
      readonly store: ExperimentStore;
      readonly kept?: readonly string[];
      /** What the run gathered for the reports as its trials finished (used when it holds every stored trial). */
      readonly spool?: RunSpool;
    };

/** How the run ended, as the reports and the exit status need it, from a fold and never a records array. */
interface RunEnding {
  readonly kept: readonly string[];
  /** Set when every trial errored: the first record's error, and whether every error was the environment's. */
  readonly allErrored?: { readonly first: string; readonly environment: boolean };
}

/** Writes the reports of a finished run, says where it is stored and how it ended; returns the exit status. */
export async function report(
  run: RunInvocation,
  finished: Experiment,
  records: RunRecords = { from: 'experiment' },
): Promise<number> {
  const { io, flags } = run;
  const stored = records.from === 'store' ? records.store : undefined;
  // Reports get what the store gets: secret values from the environment are scrubbed.
  const experiment = await redactedForReports(
    stored === undefined ? finished : { ...finished, records: [] },
    io.env,
  );
  const spool = records.from === 'store' ? records.spool : undefined;
  const read = stored === undefined ? undefined : storePages(stored, experiment.id, io.env);
  // The spool stands in for passes over the store only when it holds every stored trial.
  const storedTrials = read === undefined || spool === undefined ? 0 : await read.count();
  const folded = spool?.folded(storedTrials);
  const pages: RecordPages | undefined =
    read === undefined || folded === undefined ? read : { ...read, folded };
  const spooledJson = spool?.json(storedTrials);
  if (io.debug && spool !== undefined)
    io.stderr.write(
      `harnesseval: debug: ${storedTrials} stored trials; the run's spool serves the fold: ${folded === undefined ? 'no' : 'yes'}, the json records: ${spooledJson === undefined ? 'no' : 'yes'}\n`,
    );
  let whole: Experiment | undefined;
  // A reporter that cannot stream (a plugin's, html) gets every record: its memory grows with the run.
  const readBack = async (): Promise<Experiment> => {
    if (stored === undefined) return experiment;
    whole ??= await redactedForReports(
      { ...finished, records: await stored.listRecords(experiment.id) },
      io.env,
    );
    return whole;
  };
  const streams = (
    reporter: ReporterV1,
  ): reporter is ReporterV1 & Required<Pick<ReporterV1, 'streamReport'>> =>
    pages !== undefined && reporter.streamReport !== undefined;

  const color = useColor(io);
  const width = io.stdout.columns ?? 100;
  for (const reporter of run.stdoutReporters) {
    const options: ReportOptions = { color, width, allRows: flags.all === true };
    const out = streamWriter(io.stdout);
    if (streams(reporter) && pages !== undefined)
      await reporter.streamReport(experiment, pages, out, options);
    else await out(await reporter.report(await readBack(), options));
    // The lines on stderr below must not run on from the report's last line.
    if (out.last() !== '' && !out.last().endsWith('\n')) await out('\n');
  }
  for (const { reporter, destination } of run.fileReporters) {
    const spooled =
      spooledJson !== undefined &&
      isJsonReporter(reporter) &&
      (await writeSpooledJson(destination, experiment, spooledJson));
    // Else the report is written from the store (the records the run rendered are not all there).
    if (!spooled && streams(reporter) && pages !== undefined)
      await writeReportFile(destination, (write) =>
        reporter.streamReport(experiment, pages, write, { destination }),
      );
    else if (!spooled) await reporter.report(await readBack(), { destination });
    io.stderr.write(`wrote ${destination}\n`);
  }
  whole = undefined;
  if (run.store !== undefined && flags.store !== false)
    io.stderr.write(
      `stored experiment ${experiment.id} in ${shownStore(chosenStore(flags.store, io.env))}\n`,
    );
  const ending =
    pages === undefined || records.from !== 'store'
      ? endingOf(experiment.records)
      : await storedEnding(pages, records.kept ?? (flags.keepWorkspaces ? await keptIn(pages) : []));
  const { kept } = ending;
  if (kept.length > 0)
    io.stderr.write(
      `kept ${kept.length} workspace${kept.length === 1 ? '' : 's'}: ${kept.slice(0, 3).join(', ')}${kept.length > 3 ? ', …' : ''}\n`,
    );

  if (experiment.status === 'interrupted') {
    io.stderr.write(`harnesseval: interrupted; ${continuation(run.inputs, experiment.id)}\n`);
    return EXIT.interrupted;
  }
  if (ending.allErrored?.environment === true) {
    io.stderr.write(
      `harnesseval: every trial hit an environment error (a check could not run here, which says nothing about the harness); first: ${ending.allErrored.first}\n`,
    );
    return EXIT.failure;
  }
  if (ending.allErrored !== undefined) {
    io.stderr.write(`harnesseval: every trial failed with an error; first: ${ending.allErrored.first}\n`);
    return EXIT.failure;
  }
  if (experiment.violations.length > 0 && flags.failOnThreshold) return EXIT.failure;
  return EXIT.ok;
}

function endingOf(records: readonly RunRecord[]): RunEnding {
  const kept = records.flatMap((r) => (r.workspace === undefined ? [] : [r.workspace]));
  const allErrored = records.length > 0 && records.every((r) => r.outcome === 'error');
  return {
    kept,
    ...(allErrored
      ? {
          allErrored: {
            first: records[0]?.error ?? 'unknown',
            environment: records.every((r) => r.error_kind === 'environment'),
          },
        }
      : {}),
  };
}

/**
 * The ending of a run whose records are in the store: two counts (the run's fold's, else the
 * store's), and only when every trial errored a pass over the errors (stopping at the first that
 * is not the environment's).
 */
async function storedEnding(pages: RecordPages, kept: readonly string[]): Promise<RunEnding> {
  // The run's fold has both counts when it holds every stored trial.
  const trials = pages.folded?.counts.total ?? (await pages.count());
  const errors = pages.folded?.counts.error ?? (await pages.count(['error']));
  if (trials === 0 || errors < trials) return { kept };
  let first: string | undefined;
  let environment = true;
  for await (const record of pages.records()) {
    first ??= record.error ?? 'unknown';
    if (record.error_kind !== 'environment') {
      environment = false;
      break;
    }
  }
  return { kept, allErrored: { first: first ?? 'unknown', environment } };
}

/** The workspaces the stored records name, in the experiment's order. */
async function keptIn(pages: RecordPages): Promise<string[]> {
  const kept: string[] = [];
  for await (const record of pages.records()) if (record.workspace !== undefined) kept.push(record.workspace);
  return kept;
}

async function redactedForReports(experiment: Experiment, env: NodeJS.ProcessEnv): Promise<Experiment> {
  const [{ experimentToJson }, { ExperimentSchema }] = await Promise.all([
    import('../../store/json-io.ts'),
    import('../../core/experiment.ts'),
  ]);
  return ExperimentSchema.parse(JSON.parse(experimentToJson(experiment, { env })));
}
