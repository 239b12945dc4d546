import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { HarnessEvalError } from '../../core/errors.ts';
import { storeKind } from '../../store/location.ts';
import { type CliIO, invocationPlugins, useColor, writeLine } from '../io.ts';
import { STORE_OPTION_HELP, storeLocation } from '../store-location.ts';

const examples = `
Examples:
  $ harnesseval report exp-20261201-084403-b363       print the stored experiment as a table
  $ harnesseval report results.json --format markdown  an exported experiment as Markdown
  $ harnesseval report results.json -o out/junit.xml -o out/results.csv
                                                      one file per -o, format from the extension
  $ harnesseval report exp-20261201-0844 --store ci/harnesseval.db --format markdown -o pr-comment.md
  $ harnesseval report exp-20261201-0844 -o report.html --viewer http://127.0.0.1:4173
                                                      the HTML report links into that viewer
`;

interface ReportFlags {
  readonly format?: string;
  readonly output?: string[];
  readonly store?: string;
  readonly viewer?: string;
}

interface ReportTarget {
  readonly format: string;
  /** As the user typed it; stdout when absent. */
  readonly file?: string;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * Where the HTML report links: `--viewer URL` (127.0.0.1 only), else the viewer running on the
 * store the experiment was read from, as its state file says; none for an exported FILE.json.
 */
async function viewerFor(reference: string, flags: ReportFlags, io: CliIO): Promise<string | undefined> {
  const { viewerOriginFlag, viewerStateFile, runningViewerOrigin } = await import(
    '../../viewer/state-file.ts'
  );
  if (flags.viewer !== undefined) return viewerOriginFlag(flags.viewer);
  if (reference.toLowerCase().endsWith('.json') || existsSync(resolve(io.cwd, reference))) return undefined;
  const location = storeLocation(flags.store, io);
  return storeKind(location) === 'sqlite' ? runningViewerOrigin(viewerStateFile(location)) : undefined;
}

async function reportAction(reference: string, flags: ReportFlags, io: CliIO): Promise<void> {
  const [{ loadExperiment, storedAnnotations }, { reporters: registry }] = await Promise.all([
    import('../experiment-source.ts'),
    invocationPlugins(io),
  ]);
  // Resolve every format before any work, so a typo fails fast with exit 2.
  const outputs = flags.output ?? [];
  const targets: ReportTarget[] =
    outputs.length === 0
      ? [{ format: flags.format ?? 'console' }]
      : outputs.map((file) => ({ format: flags.format ?? registry.forFile(file), file }));
  // An unknown reporter is a configuration error to the library; named by a flag, it is usage.
  const reporters = await Promise.all(targets.map((t) => registry.create(t.format))).catch(
    (error: unknown) => {
      if (HarnessEvalError.is(error) && error.code === 'invalid_config')
        throw new HarnessEvalError('usage', error.message, { cause: error, data: error.data });
      throw error;
    },
  );
  const viewerOrigin = await viewerFor(reference, flags, io);
  const experiment = await loadExperiment(reference, { cwd: io.cwd, store: flags.store, env: io.env });
  // Flaky across stored runs of this harness version too, not only across this run's epochs.
  const [{ sameVersionRuns }, { flakyTasks }] = await Promise.all([
    import('../version-runs.ts'),
    import('../../metrics/flaky.ts'),
  ]);
  const [runs] = await sameVersionRuns([experiment], { cwd: io.cwd, store: flags.store, env: io.env });
  const flaky = runs && runs.length > 0 ? { flaky: flakyTasks([experiment, ...runs]) } : {};
  const annotations = await storedAnnotations(reference, experiment.id, {
    cwd: io.cwd,
    store: flags.store,
    env: io.env,
  });
  const extra = {
    ...flaky,
    ...(annotations.length > 0 ? { annotations } : {}),
    ...(viewerOrigin === undefined ? {} : { viewerOrigin }),
  };
  for (const [index, target] of targets.entries()) {
    const reporter = reporters[index];
    if (reporter === undefined) continue;
    if (target.file === undefined) {
      const text = await reporter.report(experiment, {
        color: useColor(io),
        width: io.stdout.columns ?? (Number(io.env['COLUMNS']) || 100),
        ...extra,
      });
      io.stdout.write(text);
    } else {
      await reporter.report(experiment, { destination: resolve(io.cwd, target.file), ...extra });
      writeLine(io.stdout, `wrote ${target.format} report to ${target.file}`);
    }
  }
}

/** `harnesseval report EXPERIMENT_ID|FILE.json`: renders a stored or exported experiment with any reporter. */
export function register(program: Command, io: CliIO): void {
  program
    .command('report')
    .description('render a stored experiment (by id) or an exported experiment JSON with any reporter')
    .argument('<experiment>', 'an experiment id in the store, or an exported FILE.json')
    .option(
      '-f, --format <name>',
      'reporter: console, json, jsonl, csv, markdown, junit (default: console, or from -o)',
    )
    .option(
      '-o, --output <file>',
      'write to FILE (repeatable; the format comes from the extension)',
      collect,
      [],
    )
    .option('--store <location>', STORE_OPTION_HELP)
    .option(
      '--viewer <url>',
      'link the HTML report into the viewer at http://127.0.0.1:PORT (default: the viewer running on the store, if any)',
    )
    .addHelpText('after', examples)
    .action(async (reference: string, flags: ReportFlags) => reportAction(reference, flags, io));
}
