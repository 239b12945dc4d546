import { type Command, InvalidArgumentError, Option } from 'commander';
import { CliExit, EXIT } from '../exit.ts';
import { ALL_ROWS_HELP, type CliIO } from '../io.ts';
import { STORE_OPTION_HELP } from '../store-location.ts';
import type { RunFlags } from './run-action.ts';
import { workerTags } from './worker-tags.ts';

const examples = `
Examples:
  $ harnesseval run examples/hello-world/benchmark.yaml
  $ harnesseval run cases.jsonl --harness harness.yaml -j 8 --epochs 3 -o out/report.md -o out/results.xml
  $ harnesseval run suites/product-dev/suite.yaml --harness examples/harness-lineage/v0.5.0.yaml
  $ harnesseval run benchmark.yaml --resume exp-20261130-101500-3fa1
  $ harnesseval run benchmark.yaml --retry-errors exp-20261130-101500-3fa1
  $ harnesseval run suite.yaml --queue postgres://evals@db.internal/evals --epochs 5
  $ harnesseval run suites/harbor-examples --harness oracle        # Harbor task folders, in bwrap
  $ harnesseval run tasks/ --harness agent.yaml --sandbox bwrap --sandbox-network loopback

Exit status: 0 when the run finished and every threshold held; 1 when a threshold was violated
(unless --no-fail-on-threshold) or every trial errored; 2 for invalid input or configuration;
130 when interrupted (the command to resume is printed).`;

const positiveInt = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a whole number >= 1`);
  return n;
};
const nonNegativeInt = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number >= 0`);
  return n;
};
const positiveNumber = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a number > 0`);
  return n;
};
/** Seconds a timer can wait: Node fires a longer timeout at once. */
const MAX_TIMER_SECONDS = 2_147_483;
const graceSeconds = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > MAX_TIMER_SECONDS || value.trim() === '')
    throw new InvalidArgumentError(`--grace must be a number of seconds from 0 to ${MAX_TIMER_SECONDS}`);
  return n;
};
const wholeNumber = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || value.trim() === '')
    throw new InvalidArgumentError(`${name} must be a whole number`);
  return n;
};
const collect = (value: string, previous: string[]) => [...previous, value];
const SANDBOX_BACKENDS = ['none', 'bwrap', 'docker', 'podman'];
const SANDBOX_NETWORKS = ['none', 'loopback', 'host'];

export function register(program: Command, io: CliIO): void {
  program
    .command('run')
    .description('run a suite, benchmark or v0 dataset through a harness and store the experiment')
    .argument('<file>', 'benchmark YAML/JSON, suite YAML, task spec YAML or v0 JSONL dataset')
    .option('--harness <file>', 'harness config (overrides the file’s agent:)')
    .option('-j, --concurrency <n>', 'trials run at once', positiveInt('--concurrency'), 4)
    .option('--epochs <k>', 'attempts per task', positiveInt('--epochs'), 1)
    .option(
      '--timeout <seconds>',
      'per-trial timeout (a test’s own timeout wins)',
      positiveNumber('--timeout'),
      60,
    )
    .option(
      '--retries <n>',
      'retries for transient errors (HTTP 429/5xx, resets)',
      nonNegativeInt('--retries'),
      0,
    )
    .option(
      '--grace <seconds>',
      'after a first Ctrl-C, how long in-flight trials may finish before they are abandoned',
      graceSeconds,
      5,
    )
    .option('--filter-id <glob>', 'only tasks whose id matches the glob')
    .option('--filter-tag <tag>', 'only tasks with this tag')
    .addOption(
      new Option('--filter-difficulty <d>', 'only tasks of this difficulty').choices([
        'easy',
        'medium',
        'hard',
      ]),
    )
    .option('--resume <experiment-id>', 'run only the missing trials of a stored experiment')
    .option(
      '--retry-errors <experiment-id>',
      'run again the trials of a stored experiment that errored outside the harness (infra, timeout, environment)',
    )
    .option('--reporter <name>', 'reporter for standard output (repeatable)', collect, [])
    .option('--all', ALL_ROWS_HELP)
    .option('-o, --output <file>', 'write a report; format from the extension (repeatable)', collect, [])
    .option('--store <location>', STORE_OPTION_HELP)
    .option('--no-store', 'do not store the experiment')
    .addOption(
      new Option(
        '--durability <level>',
        'normal: a trial survives the process being killed; full: power loss too (slower)',
      )
        .choices(['normal', 'full'])
        .default('normal'),
    )
    .option(
      '--seed <n>',
      'seed for retry jitter and the harness (HARNESSEVAL_SEED)',
      nonNegativeInt('--seed'),
    )
    .option('--no-fail-on-threshold', 'exit 0 even when a threshold is violated')
    .option('--keep-workspaces', 'keep each trial’s workspace folder')
    .option('--name <name>', 'a name for the experiment')
    .option(
      '--judge <spec>',
      'LLM judge for rubric criteria: PROVIDER:MODEL[@BASE_URL] (overrides the suite’s judge:)',
    )
    .option('--no-progress', 'no progress output')
    .option(
      '--queue <postgres-url>',
      'enqueue the trials for `harnesseval worker` processes (the URL is also the store)',
    )
    .option('--detach', 'with --queue: print the experiment id and return once the trials are queued')
    .option('--watch', 'with --queue: follow until every trial is stored (the default)')
    .option(
      '--job-expiry <seconds>',
      'with --queue: seconds a taken job waits for its worker before another worker gets it',
      positiveInt('--job-expiry'),
    )
    .option(
      '--priority <n>',
      'with --queue: workers take higher-priority experiments’ trials first (default 0)',
      wholeNumber('--priority'),
    )
    .option(
      '--max-in-flight <n>',
      'with --queue: at most n trials of this experiment run at once over all workers',
      positiveInt('--max-in-flight'),
    )
    .option(
      '--tags <tags>',
      'with --queue: only workers started with all these tags (comma-separated) take its trials',
      workerTags('--tags'),
    )
    .addOption(
      new Option(
        '--sandbox <backend>',
        'run each trial’s harness and checks in a sandbox (overrides sandbox:)',
      ).choices(SANDBOX_BACKENDS),
    )
    .addOption(
      new Option('--sandbox-network <mode>', 'what the sandbox may reach (default none)').choices(
        SANDBOX_NETWORKS,
      ),
    )
    .option(
      '--timeout-multiplier <x>',
      'Harbor tasks: multiply every agent and verifier timeout',
      positiveNumber('--timeout-multiplier'),
    )
    .addHelpText('after', examples)
    .action(async (file: string, flags: RunFlags, command: Command) => {
      // Which options the user gave: a resume takes the rest from the stored plan, not from defaults.
      const given = new Set(
        Object.keys(flags).filter((key) => {
          const source = command.getOptionValueSource(key);
          return source !== undefined && source !== 'default';
        }),
      );
      const { runCommand } = await import('./run-command.ts');
      const status = await runCommand(file, flags, given, io);
      if (status !== EXIT.ok) throw new CliExit(status);
    });
}
