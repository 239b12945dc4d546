import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { type AgentOutput, AgentOutputSchema } from '../core/agent-output.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { TaskInput } from '../core/task.ts';
import { endEscapees, newProcessTag, tagEnv, trackChildGroup } from '../util/child-groups.ts';
import { expandEnvTemplate } from '../util/env-template.ts';
import { TailBuffer } from '../util/tail-buffer.ts';
import { abortedOutput, failedOutput, normalizeAgentResult, secondsSince } from './agent-result.ts';
import { type AdapterOptions, adapterOptionSchemas } from './catalog.ts';
import { fillText, INPUT_PLACEHOLDER, inputText } from './input-template.ts';
import { errorCode } from './network-error.ts';
import { terminateProcessGroup } from './process-group.ts';
import type { AdapterDefinition, AdapterEnvironment, AgentV1, TrialContext } from './types.ts';

type CliOptions = AdapterOptions<'cli'>;

/** How much of stderr an error message keeps. */
const STDERR_TAIL_BYTES = 2048;

/** The fixed part of the child's environment: PATH, HOME, inherited names and `env` (expanded). */
function baseEnvironment(options: CliOptions, environment: AdapterEnvironment): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', ...options.inherit_env]) {
    const value = environment.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, template] of Object.entries(options.env)) {
    env[name] = expandEnvTemplate(template, environment.env, `env.${name}`);
  }
  return env;
}

/** A relative command with a slash (`./agent.sh`) is relative to the config file, not the cwd. */
function resolveCommand(command: string, baseDir: string): string {
  return !isAbsolute(command) && command.includes('/') ? resolve(baseDir, command) : command;
}

interface Invocation {
  /** The harness command as configured, for messages (the spawned one may be the sandbox's). */
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly stdin: string;
}

function spawnFailure(error: unknown, invocation: Invocation, latency: number): AgentOutput {
  const code = errorCode(error);
  if (code === 'ENOENT' && !existsSync(invocation.cwd)) {
    return failedOutput('config', `the working directory ${invocation.cwd} does not exist`, { latency });
  }
  if (code === 'ENOENT') {
    return failedOutput('config', `command not found: ${invocation.label} (not a file, and not on PATH)`, {
      latency,
    });
  }
  if (code === 'EACCES')
    return failedOutput('config', `command is not executable: ${invocation.label}`, { latency });
  return failedOutput('crash', `could not start ${invocation.label}: ${errorMessage(error)}`, { latency });
}

/** Runs the harness once; always resolves, and only after its whole process group is gone. */
function runProcess(invocation: Invocation, options: CliOptions, ctx: TrialContext): Promise<AgentOutput> {
  const start = performance.now();
  const { signal } = ctx;
  return new Promise<AgentOutput>((settle) => {
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let overflow = false;
    let spawnError: unknown;
    const stderr = new TailBuffer(STDERR_TAIL_BYTES);
    const tag = newProcessTag();
    let child: ChildProcess;
    try {
      // Never a shell; `detached` makes the harness the leader of its own process group.
      child = spawn(invocation.command, invocation.args, {
        cwd: invocation.cwd,
        env: { ...invocation.env, ...tagEnv(tag) },
        shell: false,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      settle(spawnFailure(error, invocation, secondsSince(start)));
      return;
    }
    const untrack = child.pid === undefined ? () => {} : trackChildGroup(child.pid, tag);
    let ending: Promise<void> | undefined;
    const endGroup = (): Promise<void> => {
      ending ??= child.pid === undefined ? Promise.resolve() : terminateProcessGroup(child.pid);
      return ending;
    };
    const onAbort = (): void => void endGroup();
    signal.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error) => {
      spawnError ??= error;
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.max_output_bytes) {
        overflow = true;
        void endGroup();
      } else if (!overflow) stdout.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk));
    // A harness may exit without reading its input: EPIPE here is not an error of the trial.
    child.stdin?.on('error', () => {});
    child.stdin?.end(invocation.stdin);
    // Leftovers of a harness that exited (background processes) would hold the pipes open.
    child.on('exit', () => void endGroup());

    child.on('close', (code, killedBy) => {
      signal.removeEventListener('abort', onAbort);
      const closedAt = secondsSince(start);
      // The group, then what left it (`setsid` daemons carrying the tag): nothing outlives the trial.
      void endGroup()
        .then(() => endEscapees(tag))
        .then(untrack, untrack)
        .then(() => {
          const latency = closedAt; // the cleanup after the harness closed its pipes is not its time
          const metadata = { exit_code: code, ...(killedBy === null ? {} : { signal: killedBy }) };
          const tail = stderr.toString().trim();
          const withTail = (message: string): string =>
            tail === '' ? message : `${message}; stderr: ${tail}`;
          if (spawnError !== undefined) settle(spawnFailure(spawnError, invocation, latency));
          else if (overflow) {
            settle(
              failedOutput(
                'invalid_output',
                `stdout exceeded max_output_bytes (${options.max_output_bytes} bytes); the harness was stopped`,
                {
                  latency,
                  metadata,
                },
              ),
            );
          } else if (signal.aborted) settle(abortedOutput(signal, { latency, metadata }));
          else if (killedBy !== null)
            settle(
              failedOutput('crash', withTail(`${invocation.label} was killed by ${killedBy}`), {
                latency,
                metadata,
              }),
            );
          else if (code !== 0)
            settle(
              failedOutput('agent', withTail(`${invocation.label} exited with code ${code}`), {
                latency,
                metadata,
              }),
            );
          else settle(parseOutput(Buffer.concat(stdout).toString('utf8'), options, latency, metadata));
        });
    });
  });
}

function parseOutput(
  text: string,
  options: CliOptions,
  latency: number,
  metadata: Record<string, unknown>,
): AgentOutput {
  if (options.output === 'text') {
    return AgentOutputSchema.parse({ output: text.replace(/\r?\n$/, ''), latency, metadata });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return failedOutput('invalid_output', `stdout is not valid JSON: ${errorMessage(error)}`, {
      latency,
      metadata,
    });
  }
  return normalizeAgentResult(parsed, latency, metadata);
}

function invocationFor(
  options: CliOptions,
  environment: AdapterEnvironment,
  fixedEnv: Record<string, string>,
  input: TaskInput,
  ctx: TrialContext,
): Invocation {
  const invocation = hostInvocation(options, environment, fixedEnv, input, ctx);
  if (ctx.sandbox === undefined) return invocation;
  // Inside the sandbox the harness starts in the workspace, whatever `cwd` says of the host.
  const wrapped = ctx.sandbox.command([invocation.command, ...invocation.args], {
    cwd: ctx.workspace,
    env: invocation.env,
  });
  return { ...invocation, command: wrapped.command, args: wrapped.args, cwd: wrapped.cwd, env: wrapped.env };
}

function hostInvocation(
  options: CliOptions,
  environment: AdapterEnvironment,
  fixedEnv: Record<string, string>,
  input: TaskInput,
  ctx: TrialContext,
): Invocation {
  const byArg = options.input === 'arg';
  const command = resolveCommand(options.command, environment.baseDir);
  return {
    label: command,
    command,
    args: byArg ? options.args.map((arg) => fillText(arg, input)) : options.args,
    cwd:
      options.cwd === undefined
        ? (ctx.workspace ?? environment.baseDir)
        : resolve(environment.baseDir, options.cwd),
    // ctx.env last: it carries HARNESSEVAL_EVENTS and the like for this trial.
    env: { ...fixedEnv, ...ctx.env },
    stdin: byArg ? '' : inputText(input),
  };
}

async function createCliAgent(options: CliOptions, environment: AdapterEnvironment): Promise<AgentV1> {
  const fixedEnv = baseEnvironment(options, environment);
  if (options.input === 'arg' && !options.args.some((arg) => arg.includes(INPUT_PLACEHOLDER))) {
    throw new HarnessEvalError(
      'invalid_config',
      `input: arg needs an argument containing ${INPUT_PLACEHOLDER}`,
    );
  }
  const command = resolveCommand(options.command, environment.baseDir);
  return {
    specificationVersion: 'v1',
    name: environment.harness.name,
    reports: 'files',
    // A harness script is read inside a sandbox; a bare name is found on the sandbox's PATH.
    sandboxPaths: isAbsolute(command) ? [command] : [],
    run: async (input, ctx) =>
      ctx.signal.aborted
        ? abortedOutput(ctx.signal)
        : runProcess(invocationFor(options, environment, fixedEnv, input, ctx), options, ctx),
  };
}

export const cliAdapter: AdapterDefinition<typeof adapterOptionSchemas.cli> = {
  name: 'cli',
  description: 'A harness run as a subprocess (argv, never a shell): input on stdin or as an argument.',
  options: adapterOptionSchemas.cli,
  create: createCliAgent,
};
