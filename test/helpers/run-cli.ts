import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI (`npx tsdown` first; `npm test` does it in pretest). */
export const BIN = fileURLToPath(new URL('../../bin/harnesseval.js', import.meta.url));
/** The repository root: fixtures and examples are named relative to it. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunningCli {
  readonly child: ChildProcess;
  readonly done: Promise<CliResult>;
  /** stderr so far. */
  stderr(): string;
}

/** Starts `harnesseval ARGS` in `cwd` with a clean environment (PATH, NO_COLOR, plus `env`). */
export function startCli(args: readonly string[], cwd = ROOT, env: NodeJS.ProcessEnv = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    shell: false,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // Decoded as a stream: a character split between two chunks stays one character.
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { child, done, stderr: () => stderr };
}

export function cli(args: readonly string[], cwd = ROOT, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return startCli(args, cwd, env).done;
}

/** Whether a process with this pid exists (signal 0 probes without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`condition not met in ${timeoutMs} ms`);
}

/** Whether util-linux `script` is installed: it gives a command a real terminal (a pty). */
export const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

/**
 * Starts `harnesseval ARGS` on a real terminal: `script` runs it on a pty, so its stdin and stdout
 * are TTYs as in an interactive shell (a readline that behaves with pipes can still hang there).
 * Write answers to `child.stdin`; it stays open, as a terminal does, until the test ends it.
 * `script` takes one command line for `sh -c`, so each argument is single-quoted.
 */
export function startOnTerminal(
  args: readonly string[],
  cwd = ROOT,
  env: NodeJS.ProcessEnv = {},
): RunningCli {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const line = ['exec', ...[process.execPath, BIN, ...args].map(quote)].join(' ');
  const child = spawn('script', ['-qfec', line, '/dev/null'], {
    cwd,
    shell: false,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], NO_COLOR: '1', TERM: 'dumb', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr: '' }));
  });
  // On a pty stderr and stdout are one stream: the terminal's.
  return { child, done, stderr: () => stdout };
}
