import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { HarnessEvalError } from '../../core/errors.ts';
import type { Experiment } from '../../core/experiment.ts';
import { type HarnessConfig, HarnessConfigSchema } from '../../core/harness-config.ts';
import type { JudgeConfig } from '../../core/judge.ts';
import type { RunRecord } from '../../core/run-record.ts';
import {
  type SandboxBackendName,
  type SandboxConfig,
  SandboxConfigSchema,
  type SandboxNetwork,
} from '../../core/sandbox-config.ts';
import type { ReporterV1 } from '../../reporters/types.ts';
import { CliExit, EXIT, reportError } from '../exit.ts';
import { type CliIO, useColor } from '../io.ts';
import { ProgressDisplay } from '../progress.ts';
import {
  chosenStore,
  openCliStore,
  STORE_OPTION_HELP,
  shownStore,
  storeLocation,
} from '../store-location.ts';

interface RunFlags {
  harness?: string;
  concurrency: number;
  epochs: number;
  timeout: number;
  retries: number;
  filterId?: string;
  filterTag?: string;
  filterDifficulty?: string;
  resume?: string;
  reporter: string[];
  output: string[];
  /** A location, false for --no-store, absent for $HARNESSEVAL_STORE or the default file. */
  store?: string | false;
  durability: 'normal' | 'full';
  seed?: number;
  failOnThreshold: boolean;
  keepWorkspaces: boolean;
  name?: string;
  judge?: string;
  progress: boolean;
  sandbox?: SandboxBackendName;
  sandboxNetwork?: SandboxNetwork;
  timeoutMultiplier?: number;
}

const examples = `
Examples:
  $ harnesseval run examples/hello-world/benchmark.yaml
  $ harnesseval run cases.jsonl --harness harness.yaml -j 8 --epochs 3 -o out/report.md -o out/results.xml
  $ harnesseval run suites/product-dev/suite.yaml --harness examples/harness-lineage/v0.5.0.yaml
  $ harnesseval run benchmark.yaml --resume exp-20261130-101500-3fa1
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
    .option('--reporter <name>', 'reporter for standard output (repeatable)', collect, [])
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
    .action(async (file: string, flags: RunFlags) => {
      const status = await runCommand(file, flags, io);
      if (status !== EXIT.ok) throw new CliExit(status);
    });
}

async function runCommand(file: string, flags: RunFlags, io: CliIO): Promise<number> {
  const { loadSuite, loadHarnessConfig } = await import('../../formats/index.ts');
  let suite: Awaited<ReturnType<typeof loadSuite>>;
  let harness: HarnessConfig;
  let harnessBaseDir: string;
  let judge: JudgeConfig | undefined;
  let sandbox: SandboxConfig | undefined;
  try {
    suite = await loadSuite(
      resolve(io.cwd, file),
      flags.timeoutMultiplier === undefined ? {} : { timeoutMultiplier: flags.timeoutMultiplier },
    );
    judge = suite.judge;
    if (flags.harness === 'oracle' && !existsSync(resolve(io.cwd, 'oracle'))) {
      // Harbor's sanity check needs no config file: the task's own solution is the harness.
      harness = HarnessConfigSchema.parse({ name: 'oracle', version: '1.0.0', adapter: 'oracle' });
      harnessBaseDir = io.cwd;
    } else if (flags.harness !== undefined) {
      const path = resolve(io.cwd, flags.harness);
      harness = await loadHarnessConfig(path);
      harnessBaseDir = dirname(path);
    } else if (suite.harness !== undefined) {
      harness = suite.harness;
      harnessBaseDir = dirname(resolve(io.cwd, file));
    } else {
      throw new HarnessEvalError('usage', `${file} names no agent; give one with --harness FILE`);
    }
    sandbox = chosenSandbox(flags, harness.sandbox ?? suite.sandbox);
  } catch (error) {
    return reportError(io, error, {
      invalid_input: EXIT.usage,
      invalid_config: EXIT.usage,
      not_found: EXIT.usage,
    });
  }

  const store =
    flags.store === false
      ? undefined
      : await openCliStore(storeLocation(flags.store, io), { durability: flags.durability });
  const { getReporter, reporterForFile } = await import('../../reporters/registry.ts');
  const fileReporters: { reporter: ReporterV1; destination: string }[] = [];
  const stdoutReporters: ReporterV1[] = [];
  try {
    for (const out of flags.output)
      fileReporters.push({
        reporter: await getReporter(reporterForFile(out)),
        destination: resolve(io.cwd, out),
      });
    for (const name of flags.reporter.length > 0 ? flags.reporter : ['console'])
      stdoutReporters.push(await getReporter(name));
  } catch (error) {
    await store?.close();
    return reportError(io, error, { usage: EXIT.usage, not_found: EXIT.usage });
  }

  const streaming = fileReporters.map((f) => f.reporter).filter((r) => r.onTrialEnd !== undefined);
  const progress = flags.progress ? new ProgressDisplay(io, io.stderr.isTTY === true) : undefined;
  const interrupt = new AbortController();
  let signals = 0;
  let experimentId: string | undefined;
  const onSignal = () => {
    signals++;
    if (signals === 1) {
      progress?.message(
        'harnesseval: interrupting — finishing in-flight trials (up to 5 s); press Ctrl-C again to stop now',
      );
      interrupt.abort();
      return;
    }
    // Everything finished is already committed to the store, trial by trial.
    io.stderr.write(
      `\nharnesseval: stopped${experimentId ? `; resume with: ${resumeCommand(file, flags, experimentId)}` : ''}\n`,
    );
    process.exit(EXIT.interrupted);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let experiment: Experiment;
  try {
    const { runExperiment } = await import('../../runner/runner.ts');
    experiment = await runExperiment({
      suite,
      harness,
      harnessBaseDir,
      ...(store === undefined ? {} : { store }),
      ...(flags.resume === undefined ? {} : { resume: flags.resume }),
      ...(flags.name === undefined ? {} : { name: flags.name }),
      keepWorkspaces: flags.keepWorkspaces,
      ...(sandbox === undefined ? {} : { sandbox }),
      ...(judge === undefined ? {} : { judge }),
      signal: interrupt.signal,
      env: io.env,
      settings: {
        epochs: flags.epochs,
        concurrency: flags.concurrency,
        timeout_seconds: flags.timeout,
        retries: flags.retries,
        ...(flags.timeoutMultiplier === undefined ? {} : { timeout_multiplier: flags.timeoutMultiplier }),
        ...(flags.seed === undefined ? {} : { seed: flags.seed }),
        filters: {
          ...(flags.filterId === undefined ? {} : { id: flags.filterId }),
          ...(flags.filterTag === undefined ? {} : { tag: flags.filterTag }),
          ...(flags.filterDifficulty === undefined ? {} : { difficulty: flags.filterDifficulty }),
        },
      },
      onEvent: async (event) => {
        switch (event.type) {
          case 'run_start':
            experimentId = event.experiment.id;
            for (const { reporter, destination } of fileReporters)
              await reporter.onRunStart?.(event.experiment, { destination });
            break;
          case 'trial_end':
            if (streaming.length > 0) {
              const record = await redactRecord(event.record, io.env);
              for (const reporter of streaming) await reporter.onTrialEnd?.(record);
            }
            progress?.update(event.progress);
            break;
          case 'run_end':
            progress?.finish();
            for (const { reporter } of fileReporters) await reporter.onRunEnd?.(event.experiment);
            break;
          default:
            break;
        }
      },
    });
  } catch (error) {
    progress?.finish();
    return reportError(io, error, {
      invalid_input: EXIT.usage,
      invalid_config: EXIT.usage,
      not_found: EXIT.usage,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await store?.close();
  }

  // Reports get what the store gets: secret values from the environment are scrubbed.
  experiment = await redactedForReports(experiment, io.env);
  const color = useColor(io);
  const width = io.stdout.columns ?? 100;
  for (const reporter of stdoutReporters)
    io.stdout.write(await reporter.report(experiment, { color, width }));
  for (const { reporter, destination } of fileReporters) {
    await reporter.report(experiment, { destination });
    io.stderr.write(`wrote ${destination}\n`);
  }
  if (store !== undefined && flags.store !== false)
    io.stderr.write(
      `stored experiment ${experiment.id} in ${shownStore(chosenStore(flags.store, io.env))}\n`,
    );

  if (experiment.status === 'interrupted') {
    io.stderr.write(`harnesseval: interrupted; resume with: ${resumeCommand(file, flags, experiment.id)}\n`);
    return EXIT.interrupted;
  }
  if (experiment.records.length > 0 && experiment.records.every((r) => r.outcome === 'error')) {
    io.stderr.write(
      `harnesseval: every trial failed with an error; first: ${experiment.records[0]?.error ?? 'unknown'}\n`,
    );
    return EXIT.failure;
  }
  if (experiment.violations.length > 0 && flags.failOnThreshold) return EXIT.failure;
  return EXIT.ok;
}

/** `--sandbox` and `--sandbox-network` over the config's `sandbox:` section. */
function chosenSandbox(flags: RunFlags, configured: SandboxConfig | undefined): SandboxConfig | undefined {
  if (flags.sandbox === undefined && flags.sandboxNetwork === undefined) return configured;
  const backend = flags.sandbox ?? configured?.backend;
  if (backend === undefined)
    throw new HarnessEvalError(
      'usage',
      '--sandbox-network needs a sandbox: add --sandbox bwrap (or docker, podman)',
    );
  return SandboxConfigSchema.parse({
    ...configured,
    backend,
    network: flags.sandboxNetwork ?? configured?.network ?? 'none',
  });
}

/** The command that continues this run: same file, harness and store. */
function resumeCommand(file: string, flags: RunFlags, id: string): string {
  const quote = (arg: string) => (/^[\w./:@-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);
  const parts = ['harnesseval', 'run', quote(file), '--resume', id];
  if (flags.harness !== undefined) parts.push('--harness', quote(flags.harness));
  // A store from $HARNESSEVAL_STORE is found again the same way; a URL's password is not printed.
  if (typeof flags.store === 'string') parts.push('--store', quote(shownStore(flags.store)));
  return parts.join(' ');
}

async function redactedForReports(experiment: Experiment, env: NodeJS.ProcessEnv): Promise<Experiment> {
  const [{ experimentToJson }, { ExperimentSchema }] = await Promise.all([
    import('../../store/json-io.ts'),
    import('../../core/experiment.ts'),
  ]);
  return ExperimentSchema.parse(JSON.parse(experimentToJson(experiment, { env })));
}

async function redactRecord(record: RunRecord, env: NodeJS.ProcessEnv): Promise<RunRecord> {
  const [{ redactSecrets }, { RunRecordSchema }] = await Promise.all([
    import('../../store/redact.ts'),
    import('../../core/run-record.ts'),
  ]);
  return RunRecordSchema.parse(JSON.parse(redactSecrets(JSON.stringify(record), env)));
}
