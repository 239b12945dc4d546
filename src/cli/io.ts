import type { Writable } from 'node:stream';
import type { PluginSet } from '../plugins/set.ts';

/** Where a command writes, and how. Commands never touch `process.stdout` directly (tests pass buffers). */
export interface CliIO {
  readonly stdout: Writable & { isTTY?: boolean; columns?: number };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly stdin?: NodeJS.ReadableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Print stack traces (`--debug`). */
  debug: boolean;
  /**
   * This invocation's plugins: `--plugin` and files' `plugins:` modules register here, and every
   * command looks names up here. `runCli` gives each invocation a copy of the default set (made on
   * first use, see `invocationPlugins`), so nothing one invocation loads reaches another.
   */
  plugins?: PluginSet;
}

/** The invocation's plugin set, made on first use (a copy of the default set: what a library caller registered). */
export async function invocationPlugins(io: CliIO): Promise<PluginSet> {
  if (io.plugins === undefined) {
    const { copyPluginSet, defaultPlugins } = await import('../plugins/set.ts');
    io.plugins = copyPluginSet(defaultPlugins);
  }
  return io.plugins;
}

export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    debug: false,
  };
}

/** Colour only on a TTY and never with NO_COLOR (https://no-color.org). */
export function useColor(io: CliIO, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '') return false;
  if (io.env['FORCE_COLOR'] !== undefined && io.env['FORCE_COLOR'] !== '0') return true;
  return io[stream].isTTY === true;
}

import type { Paint } from '../reporters/paint.ts';

export type { Paint };

const identity = (s: string): string => s;
const sgr = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

export function paint(enabled: boolean): Paint {
  if (!enabled) return { red: identity, green: identity, yellow: identity, dim: identity, bold: identity };
  return { red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}

export function writeLine(stream: Writable, line = ''): void {
  stream.write(`${line}\n`);
}

/** `--all` of `run` and `report` (the console's row limit is `CONSOLE_ROW_LIMIT`). */
export const ALL_ROWS_HELP =
  'show every trial’s row on the console (above 200 trials it shows the failed and errored ones and a summary)';
