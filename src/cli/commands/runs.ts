import { type Command, InvalidArgumentError, Option } from 'commander';
import { HarnessEvalError } from '../../core/errors.ts';
import { IMPORT_TOOLS } from '../../store/importers/types.ts';
import type { CliIO } from '../io.ts';
import { STORE_OPTION_HELP } from '../store-location.ts';
import type { RegisterCommand } from './index.ts';

const EXAMPLES = `
Examples:
  $ harnesseval runs list
  $ harnesseval runs list --harness my-agent --limit 5 --format json
  $ harnesseval runs show exp-20261201-084403-b363
  $ harnesseval runs export exp-20261201-0844 -o results/run.json   # a unique id prefix is enough
  $ harnesseval runs export exp-20261201-0844 --format atif -o results/trajectories
  $ harnesseval runs import results/run.json --replace
  $ harnesseval runs import --from harbor jobs/2026-12-01__10-00-00 --suite terminal-bench
  $ harnesseval runs import --from inspect logs/word-tasks.json
  $ harnesseval runs import --from promptfoo results.json
  $ harnesseval runs delete exp-20261201-084403-b363
  $ harnesseval runs cleanup               # end what a killed run left running
  $ harnesseval runs --store postgres://ci@db.internal/evals cleanup --queue   # and delete finished experiments' jobs
  $ harnesseval runs --store postgres://ci@db.internal/evals watch exp-20261130-101500-3fa1   # a run --queue experiment
  $ harnesseval runs --store postgres://ci@db.internal/evals cancel exp-20261130-101500-3fa1
  $ harnesseval runs --store ci/harnesseval.db list
  $ harnesseval runs --store postgres://ci@db.internal/evals import results/run.json
`;

function parseScore(value: string): number {
  const score = Number(value);
  if (value.trim() === '' || !Number.isFinite(score) || score < 0 || score > 1)
    throw new InvalidArgumentError('expected a number from 0 to 1');
  return score;
}

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 0) throw new InvalidArgumentError('expected a whole number >= 0');
  return limit;
}

const formatOption = () =>
  new Option('--format <format>', 'output format').choices(['table', 'json'] as const).default('table');

/** The action module is imported only when a subcommand runs: it pulls in the store and SQLite. */
const actions = () => import('./runs-actions.ts');

/** `--store` belongs to `runs`, so it may be given before or after the subcommand. */
function storeOption(cmd: Command): string | undefined {
  const value: unknown = cmd.optsWithGlobals()['store'];
  return typeof value === 'string' ? value : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export const register: RegisterCommand = (program: Command, io: CliIO) => {
  const runs = program
    .command('runs')
    .description('list, show, export, import, delete, watch, cancel and clean up stored experiments')
    .option('--store <location>', STORE_OPTION_HELP)
    .addHelpText('after', EXAMPLES);

  runs
    .command('list')
    .description('list stored experiments, newest first')
    .option('--harness <name>', 'only this harness')
    .option('--suite <id>', 'only this suite')
    .option('--limit <n>', 'at most N experiments', parseLimit)
    .addOption(formatOption())
    .action(async (opts: Record<string, unknown>, cmd: Command) => {
      const limit = opts['limit'];
      await (await actions()).listRuns(io, {
        store: storeOption(cmd),
        harness: text(opts['harness']),
        suite: text(opts['suite']),
        limit: typeof limit === 'number' ? limit : undefined,
        format: opts['format'] === 'json' ? 'json' : 'table',
      });
    });

  runs
    .command('show')
    .description('summarize one experiment: harness, suite, status, outcomes, metrics')
    .argument('<id>', 'experiment id or a unique prefix of it')
    .addOption(formatOption())
    .action(async (id: string, opts: Record<string, unknown>, cmd: Command) => {
      await (await actions()).showRun(io, {
        store: storeOption(cmd),
        id,
        format: opts['format'] === 'json' ? 'json' : 'table',
      });
    });

  runs
    .command('export')
    .description(
      'write an experiment as portable JSON (to stdout without -o), or one ATIF trajectory per trial',
    )
    .argument('<id>', 'experiment id or a unique prefix of it')
    .option('-o, --output <path>', 'the JSON file to write (with --format atif: the folder)')
    .addOption(
      new Option('--format <format>', 'experiment JSON, or ATIF v1.7 (one <task>__<epoch>.json per trial)')
        .choices(['json', 'atif'] as const)
        .default('json'),
    )
    .action(async (id: string, opts: Record<string, unknown>, cmd: Command) => {
      const output = text(opts['output']);
      if (opts['format'] === 'atif') {
        await (await import('./runs-atif.ts')).exportAtif(io, { store: storeOption(cmd), id, output });
        return;
      }
      await (await actions()).exportRun(io, { store: storeOption(cmd), id, output });
    });

  runs
    .command('import')
    .description("store an experiment from an exported JSON file, or another tool's results (--from)")
    .argument(
      '<path>',
      'an exported experiment (.json), or with --from: a Harbor job folder, an Inspect log, promptfoo results',
    )
    .addOption(
      new Option('--from <tool>', "read another tool's results instead of our own export").choices(
        IMPORT_TOOLS,
      ),
    )
    .option(
      '--suite <id>',
      'with --from: the suite id to store the runs under (to compare with a native run)',
    )
    .option(
      '--pass-threshold <score>',
      'with --from: a trial passes when its main score (reward) is at least this (default 1; promptfoo: its own verdict unless given)',
      parseScore,
    )
    .option(
      '--infra-exception <type>',
      'with --from harbor: one more exception type to count as an infrastructure error (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--replace', 'overwrite an experiment with the same id')
    .action(async (path: string, opts: Record<string, unknown>, cmd: Command) => {
      const from = opts['from'];
      if (typeof from === 'string') {
        const tool = IMPORT_TOOLS.find((t) => t === from);
        if (tool === undefined) throw new HarnessEvalError('usage', `--from: unknown tool ${from}`);
        await (await import('./runs-import-action.ts')).importForeignRuns(io, {
          store: storeOption(cmd),
          tool,
          path,
          replace: opts['replace'] === true,
          suiteId: text(opts['suite']),
          passThreshold: typeof opts['passThreshold'] === 'number' ? opts['passThreshold'] : undefined,
          infraExceptions: Array.isArray(opts['infraException'])
            ? (opts['infraException'] as string[])
            : undefined,
        });
        return;
      }
      for (const flag of ['suite', 'passThreshold', 'infraException'])
        if (opts[flag] !== undefined)
          throw new HarnessEvalError(
            'usage',
            `--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} needs --from`,
          );
      await (await actions()).importRun(io, {
        store: storeOption(cmd),
        file: path,
        replace: opts['replace'] === true,
      });
    });

  runs
    .command('delete')
    .description('delete an experiment and its records')
    .argument('<id>', 'experiment id or a unique prefix of it')
    .action(async (id: string, _opts: Record<string, unknown>, cmd: Command) => {
      await (await actions()).deleteRun(io, { store: storeOption(cmd), id });
    });

  runs
    .command('watch')
    .description('follow a queued experiment (run --queue) until every trial is stored')
    .argument('<id>', 'experiment id or a unique prefix of it')
    .action(async (id: string, _opts: Record<string, unknown>, cmd: Command) => {
      await (await import('./runs-queue-actions.ts')).watchRun(io, { store: storeOption(cmd), id });
    });

  runs
    .command('cancel')
    .description('cancel the queued trials of an experiment (run --queue); it is marked interrupted')
    .argument('<id>', 'experiment id or a unique prefix of it')
    .action(async (id: string, _opts: Record<string, unknown>, cmd: Command) => {
      await (await import('./runs-queue-actions.ts')).cancelRun(io, { store: storeOption(cmd), id });
    });

  runs
    .command('cleanup')
    .description(
      'end the processes killed runs left running, and mark their experiments interrupted (resumable)',
    )
    .option(
      '--queue [postgres-url]',
      'also delete the job rows the queue keeps of finished and deleted experiments (default: --store, else $HARNESSEVAL_STORE)',
    )
    .action(async (opts: Record<string, unknown>, cmd: Command) => {
      const queue = opts['queue'];
      await (await actions()).cleanupRuns(io, {
        store: storeOption(cmd),
        queue: typeof queue === 'string' || queue === true ? queue : undefined,
      });
    });
};
