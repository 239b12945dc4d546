import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { AgentOutput } from '../core/agent-output.ts';
import { errorMessage } from '../core/errors.ts';
import { endEscapees, newProcessTag, tagEnv, trackChildGroup } from '../util/child-groups.ts';
import { TailBuffer } from '../util/tail-buffer.ts';
import { abortedOutput, failedOutput, secondsSince } from './agent-result.ts';
import { errorCode } from './network-error.ts';
import { terminateProcessGroup } from './process-group.ts';

/** How much of stderr an error message keeps. */
const STDERR_TAIL_BYTES = 2048;

/** One run of a harness process: argv (never a shell), working folder, environment, stdin. */
export interface SubprocessSpec {
  /** The command as configured, for messages (the spawned one may be the sandbox's). */
  readonly label?: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly stdin: string;
}

export interface SubprocessResult {
  readonly stdout: Buffer;
  readonly exitCode: number | null;
  readonly killedBy: NodeJS.Signals | null;
  readonly stderrTail: string;
  readonly spawnError?: unknown;
  /** stdout went past the limit and the process was stopped. */
  readonly overflow: boolean;
  readonly latency: number;
}

/**
 * Runs a harness process to its end and resolves only after its whole process group is gone: at
 * the signal (a timeout or an interrupt), at an output overflow, or once it exits (leftover
 * background processes would hold the pipes open). Never rejects.
 */
export function runSubprocess(
  spec: SubprocessSpec,
  options: { readonly signal: AbortSignal; readonly maxOutputBytes: number },
): Promise<SubprocessResult> {
  const start = performance.now();
  const { signal } = options;
  return new Promise((settle) => {
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let overflow = false;
    let spawnError: unknown;
    const stderr = new TailBuffer(STDERR_TAIL_BYTES);
    // The tag follows every descendant, even those that leave the group (`setsid`).
    const tag = newProcessTag();
    let child: ChildProcess;
    try {
      // Never a shell; `detached` makes the harness the leader of its own process group.
      child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: { ...spec.env, ...tagEnv(tag) },
        shell: false,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      settle({
        stdout: Buffer.alloc(0),
        exitCode: null,
        killedBy: null,
        stderrTail: '',
        spawnError: error,
        overflow,
        latency: secondsSince(start),
      });
      return;
    }
    // Recorded while it lives: a second Ctrl-C, the watchdog and `runs cleanup` can end it.
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
      if (stdoutBytes > options.maxOutputBytes) {
        overflow = true;
        void endGroup();
      } else if (!overflow) stdout.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk));
    // A harness may exit without reading its input: EPIPE here is not an error of the trial.
    child.stdin?.on('error', () => {});
    child.stdin?.end(spec.stdin);
    child.on('exit', () => void endGroup());
    child.on('close', (code, killedBy) => {
      signal.removeEventListener('abort', onAbort);
      // The cleanup after the harness closed its pipes is not its time.
      const latency = secondsSince(start);
      // The group, then what left it (`setsid` daemons carrying the tag): nothing outlives the trial.
      void endGroup()
        .then(() => endEscapees(tag))
        .then(untrack, untrack)
        .then(() =>
          settle({
            stdout: Buffer.concat(stdout),
            exitCode: code,
            killedBy,
            stderrTail: stderr.toString().trim(),
            ...(spawnError === undefined ? {} : { spawnError }),
            overflow,
            latency,
          }),
        );
    });
  });
}

/** The failure of a process that could not start: a missing folder or command, or no permission. */
export function spawnFailure(error: unknown, spec: SubprocessSpec, latency: number): AgentOutput {
  const code = errorCode(error);
  if (code === 'ENOENT' && !existsSync(spec.cwd))
    return failedOutput('config', `the working directory ${spec.cwd} does not exist`, { latency });
  if (code === 'ENOENT')
    return failedOutput(
      'config',
      `command not found: ${spec.label ?? spec.command} (not a file, and not on PATH)`,
      {
        latency,
      },
    );
  if (code === 'EACCES')
    return failedOutput('config', `command is not executable: ${spec.label ?? spec.command}`, { latency });
  return failedOutput('crash', `could not start ${spec.label ?? spec.command}: ${errorMessage(error)}`, {
    latency,
  });
}

/**
 * The failure a finished run stands for, checked in order: it never started, overflowed, was
 * stopped by the trial's signal, was killed, or exited non-zero. Undefined for a clean exit.
 */
export function runFailure(
  result: SubprocessResult,
  spec: SubprocessSpec,
  signal: AbortSignal,
  maxOutputBytes: number,
): AgentOutput | undefined {
  const { latency } = result;
  const metadata = {
    exit_code: result.exitCode,
    ...(result.killedBy === null ? {} : { signal: result.killedBy }),
  };
  const withTail = (message: string) =>
    result.stderrTail === '' ? message : `${message}; stderr: ${result.stderrTail}`;
  if (result.spawnError !== undefined) return spawnFailure(result.spawnError, spec, latency);
  if (result.overflow)
    return failedOutput(
      'invalid_output',
      `stdout exceeded max_output_bytes (${maxOutputBytes} bytes); the harness was stopped`,
      { latency, metadata },
    );
  if (signal.aborted) return abortedOutput(signal, { latency, metadata });
  if (result.killedBy !== null)
    return failedOutput('crash', withTail(`${spec.label ?? spec.command} was killed by ${result.killedBy}`), {
      latency,
      metadata,
    });
  if (result.exitCode !== 0)
    return failedOutput(
      'agent',
      withTail(`${spec.label ?? spec.command} exited with code ${result.exitCode}`),
      {
        latency,
        metadata,
      },
    );
  return undefined;
}
