import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { errorMessage, HarnessEvalError } from '../../core/errors.ts';
import { type HarnessConfig, HarnessConfigSchema } from '../../core/harness-config.ts';
import type { JudgeConfig } from '../../core/judge.ts';
import { type SandboxConfig, SandboxConfigSchema } from '../../core/sandbox-config.ts';
import { loadHarnessConfig, loadSuite } from '../../formats/index.ts';
import type { ReporterV1 } from '../../reporters/types.ts';
import type { ExperimentStore } from '../../store/types.ts';
import { EXIT, reportError } from '../exit.ts';
import { type CliIO, invocationPlugins } from '../io.ts';
import type { ResumeInputs } from '../run-stop.ts';
import { openCliStore, storeLocation } from '../store-location.ts';
import { executeRun, type RunFlags } from './run-action.ts';

// What `run` does once its flags are parsed; run.ts (the command's flags and help, loaded on every
// start) imports this only when the command runs, so the schemas and the runner stay off start-up.

export async function runCommand(
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
  { key: 'grace', args: (f) => ['--grace', String(f.grace)] },
  { key: 'output', args: (f) => f.output.flatMap((o) => ['-o', o]) },
  { key: 'reporter', args: (f) => f.reporter.flatMap((r) => ['--reporter', r]) },
  { key: 'all', args: (f) => (f.all === true ? ['--all'] : []) },
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
