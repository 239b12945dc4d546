import { resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { hasDocumentExtension } from '../formats/detect.ts';
import { harnessEvalVersion } from '../version.ts';
import { commands } from './commands/index.ts';
import { CliExit, EXIT, reportError } from './exit.ts';
import { type CliIO, invocationPlugins, processIO } from './io.ts';

/**
 * The command the arguments name (the first word that is not an option or `--plugin`'s value),
 * when it is a known one; undefined for `--help`, `--version`, nothing or a misspelling.
 */
export function namedCommand(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--plugin') {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return commands.some((c) => c.name === arg) ? arg : undefined;
  }
  return undefined;
}

/** The commands whose arguments are suite or benchmark files that may name `plugins:`. */
const FILE_COMMANDS = new Set(['run', 'validate', 'lint']);

/**
 * Builds the program; each command file registers itself (flags, help, examples, action).
 * With `only`, just that command: building all twelve costs several ms of every start.
 */
export function buildProgram(io: CliIO, only?: string): Command {
  const program = new Command('harnesseval')
    .description('Measure how well an AI agent harness does its work, and whether each version does better.')
    .version(harnessEvalVersion(), '-V, --version')
    .option('--debug', 'print stack traces for errors, and diagnostics (what the reports of a run read)')
    .option(
      '--plugin <module>',
      'load a plugin module (evaluators, metrics, adapters, reporters) before the command; repeatable',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .exitOverride();
  program.hook('preAction', async (cmd, action) => {
    io.debug = cmd.opts()['debug'] === true || io.debug;
    const plugins: unknown = cmd.opts()['plugin'];
    if (Array.isArray(plugins) && plugins.length > 0) {
      const { loadPlugin } = await import('../plugins/load.ts');
      const set = await invocationPlugins(io);
      for (const plugin of plugins) if (typeof plugin === 'string') await loadPlugin(plugin, io.cwd, set);
    }
    // A suite or benchmark may name its own plugin modules (`plugins:`); they load before the
    // file is checked, exactly like `--plugin`, into this invocation's set.
    const documents = FILE_COMMANDS.has(action.name()) ? action.args.filter(hasDocumentExtension) : [];
    if (documents.length > 0) {
      const { loadFilePlugins } = await import('../plugins/file-plugins.ts');
      const set = await invocationPlugins(io);
      for (const arg of documents) await loadFilePlugins(resolve(io.cwd, arg), set);
    }
  });
  for (const command of commands)
    if (only === undefined || command.name === only) command.register(program, io);
  return program;
}

/** Runs the CLI and resolves with the exit status; never calls `process.exit` itself. */
export async function runCli(argv: readonly string[], given: CliIO = processIO()): Promise<number> {
  // Each invocation has its own plugin set (unless the caller hands one over): the plugin modules
  // one loads never change the names another sees, nor the default set.
  const io: CliIO = { ...given };
  io.debug = argv.includes('--debug');
  const program = buildProgram(io, namedCommand(argv));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      if (error.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    if (error instanceof CliExit) return error.status;
    return reportError(io, error);
  }
}

const isEntry =
  process.argv[1] !== undefined && /harnesseval(\.c?js)?$|cli\.(c?js|ts)$|main\.ts$/.test(process.argv[1]);
if (isEntry) {
  // `harnesseval runs list | head` closes the pipe early: that is the reader's choice, not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  // A signal that meets no command's own handler (a command that has none, or one that has
  // returned and uninstalled its handlers while the process winds down) exits with the status
  // already decided, or 130 — never Node's default, a bare death by signal (exit 143 for SIGTERM)
  // after a command has printed its last word. A command's own handlers run instead of this one.
  const late = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    process.exit(process.exitCode ?? EXIT.interrupted);
  };
  process.on('SIGINT', late);
  process.on('SIGTERM', late);
  // Once the command is done, the process exits with its status at once, its output written:
  // winding down on its own, Node closes its signal handles before it is gone, and a signal in
  // that window (measured: ~20 ms after `run`'s last line) met the default action, exit 143.
  void runCli(process.argv.slice(2)).then(async (status) => {
    process.exitCode = status;
    await Promise.all([drained(process.stdout), drained(process.stderr)]);
    process.exit(status);
  });
}

/** Resolves once `stream` has handed everything written to it to the system. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('drain', resolve);
    stream.once('close', resolve);
    stream.once('error', resolve);
  });
}
