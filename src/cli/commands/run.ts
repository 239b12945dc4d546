import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { errorMessage, HarnessEvalError } from '../../core/errors.ts';
import { type HarnessConfig, HarnessConfigSchema } from '../../core/harness-config.ts';
import type { JudgeConfig } from '../../core/judge.ts';
import { type SandboxConfig, SandboxConfigSchema } from '../../core/sandbox-config.ts';
import type { ReporterV1 } from '../../reporters/types.ts';
import type { ExperimentStore } from '../../store/types.ts';
import { CliExit, EXIT, reportError } from '../exit.ts';
import { type CliIO, invocationPlugins } from '../io.ts';
import type { ResumeInputs } from '../run-stop.ts';
import { openCliStore, STORE_OPTION_HELP, storeLocation } from '../store-location.ts';
import { executeRun, type RunFlags } from './run-action.ts';
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
      const status = await runCommand(file, flags, given, io);
      if (status !== EXIT.ok) throw new CliExit(status);
    });
}

async function runCommand(
  file: string,
  flags: RunFlags,
  given: ReadonlySet<string>,
  io: CliIO,
): Promise<number> {
  const queueOnly = (['detach', 'watch', 'jobExpiry', 'priority', 'maxInFlight', 'tags'] as const).filter(
    (f) => given.has(f),
  );
  if (flags.queue === undefined && queueOnly.length > 0) {
    const name = (f: string) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    io.stderr.write(
      `harnesseval: ${queueOnly.map(name).join(', ')} only apply with --queue <postgres-url>\n`,
    );
    return EXIT.usage;
  }
  const { loadSuite, loadHarnessConfig } = await import('../../formats/index.ts');
  const plugins = await invocationPlugins(io);
  let suite: Awaited<ReturnType<typeof loadSuite>>;
  let harness: HarnessConfig;
  let harnessBaseDir: string;
  let judge: JudgeConfig | undefined;
  let sandbox: SandboxConfig | undefined;
  try {
    // With --harness the file's own agent is never created, so it need not be creatable.
    suite = await loadSuite(resolve(io.cwd, file), {
      checkAgent: flags.harness === undefined,
      plugins,
      ...(flags.timeoutMultiplier === undefined ? {} : { timeoutMultiplier: flags.timeoutMultiplier }),
    });
    judge = await judgeFor(suite, flags.judge);
    if (flags.harness === 'oracle' && !existsSync(resolve(io.cwd, 'oracle'))) {
      // Harbor's sanity check needs no config file: the task's own solution is the harness.
      harness = HarnessConfigSchema.parse({ name: 'oracle', version: '1.0.0', adapter: 'oracle' });
      harnessBaseDir = io.cwd;
    } else if (flags.harness !== undefined) {
      const path = resolve(io.cwd, flags.harness);
      harness = await loadHarnessConfig(path, { plugins });
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

  const fileReporters: { reporter: ReporterV1; destination: string }[] = [];
  const stdoutReporters: ReporterV1[] = [];
  try {
    for (const out of flags.output)
      fileReporters.push({
        reporter: await plugins.reporters.create(plugins.reporters.forFile(out)),
        destination: await writableDestination(resolve(io.cwd, out), out),
      });
    for (const name of flags.reporter.length > 0 ? flags.reporter : ['console'])
      stdoutReporters.push(await plugins.reporters.create(name));
  } catch (error) {
    return reportError(io, error, { usage: EXIT.usage, invalid_config: EXIT.usage, not_found: EXIT.usage });
  }
  if (flags.queue !== undefined) {
    const { runQueued } = await import('./run-queue.ts');
    return runQueued({
      file,
      suite,
      harness,
      harnessBaseDir,
      sandbox,
      // Only --judge goes with the plan: a suite's own judge is read by every worker from its suite.
      judge: flags.judge === undefined ? undefined : judge,
      flags,
      given,
      io,
      fileReporters,
      stdoutReporters,
    });
  }
  let store: ExperimentStore | undefined;
  try {
    store =
      flags.store === false
        ? undefined
        : await openCliStore(storeLocation(flags.store, io), {
            durability: flags.durability,
            ...busyTimeout(io.env),
          });
  } catch (error) {
    return reportError(io, error);
  }
  const inputs = resumeInputs(file, flags, given);
  try {
    return await executeRun({
      suite,
      harness,
      harnessBaseDir,
      judge,
      sandbox,
      store,
      flags,
      given,
      inputs,
      io,
      fileReporters,
      stdoutReporters,
    });
  } finally {
    await store?.close();
  }
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

/** `--judge` wins over the suite's `judge:`; a malformed spec is a usage error. */
async function judgeFor(suite: { judge?: JudgeConfig | undefined }, spec: string | undefined) {
  if (spec === undefined) return suite.judge;
  const { parseJudgeSpec } = await import('../../scoring/judge-config.ts');
  return parseJudgeSpec(spec);
}

/** How long a write waits for another process's lock, from HARNESSEVAL_STORE_BUSY_TIMEOUT (seconds). */
function busyTimeout(env: NodeJS.ProcessEnv): { busyTimeoutMs?: number } {
  const seconds = Number(env['HARNESSEVAL_STORE_BUSY_TIMEOUT']);
  return Number.isFinite(seconds) && seconds >= 0 && env['HARNESSEVAL_STORE_BUSY_TIMEOUT'] !== ''
    ? { busyTimeoutMs: seconds * 1000 }
    : {};
}

/** The resume command keeps these options when they were given (the plan's come from the store). */
const KEPT_OPTIONS: readonly {
  readonly key: keyof RunFlags;
  readonly args: (flags: RunFlags) => string[];
}[] = [
  { key: 'concurrency', args: (f) => ['-j', String(f.concurrency)] },
  { key: 'output', args: (f) => f.output.flatMap((o) => ['-o', o]) },
  { key: 'reporter', args: (f) => f.reporter.flatMap((r) => ['--reporter', r]) },
  { key: 'judge', args: (f) => (f.judge === undefined ? [] : ['--judge', f.judge]) },
  { key: 'durability', args: (f) => ['--durability', f.durability] },
  { key: 'keepWorkspaces', args: (f) => (f.keepWorkspaces ? ['--keep-workspaces'] : []) },
  { key: 'sandbox', args: (f) => (f.sandbox === undefined ? [] : ['--sandbox', f.sandbox]) },
  {
    key: 'sandboxNetwork',
    args: (f) => (f.sandboxNetwork === undefined ? [] : ['--sandbox-network', f.sandboxNetwork]),
  },
  { key: 'failOnThreshold', args: (f) => (f.failOnThreshold ? [] : ['--no-fail-on-threshold']) },
];

function resumeInputs(file: string, flags: RunFlags, given: ReadonlySet<string>): ResumeInputs {
  return {
    file,
    harness: flags.harness,
    store: flags.store,
    keep: KEPT_OPTIONS.filter((o) => given.has(o.key)).flatMap((o) => o.args(flags)),
  };
}

/**
 * Where an `-o` report goes, checked before the first trial: its folder is made now (one level
 * at a time: Node's recursive mkdir spins forever under /proc) and must be writable, and the
 * path must not be a folder. A bad destination fails in a second, not after an hour of trials.
 */
async function writableDestination(path: string, shown: string): Promise<string> {
  const { makeDirs } = await import('../../util/make-dirs.ts');
  const { access, stat } = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  try {
    await makeDirs(dirname(path));
    await access(dirname(path), constants.W_OK);
    const existing = await stat(path).catch(() => undefined);
    if (existing?.isDirectory() === true) throw new Error('it is a folder');
  } catch (error) {
    throw new HarnessEvalError('usage', `-o ${shown}: cannot write a report there: ${errorMessage(error)}`, {
      cause: error,
      data: { destination: path },
    });
  }
  return path;
}
