import type { CommandOutcome } from './run-command.ts';

/**
 * Why a check command could not run where it ran — the environment's fault, not the harness's —
 * or undefined when it ran (and passed or failed on its merits):
 * - the program does not exist or is not executable (spawn ENOENT/EACCES; a shell's 127/126);
 * - Node cannot find a package the command itself names (`node --import tsx …` without tsx
 *   installed next to the workspace). A package the *code under test* imports is not named by
 *   the command: that stays a failure of the code.
 */
export function environmentProblem(argv: readonly string[], run: CommandOutcome): string | undefined {
  const program = argv[0] ?? '';
  if (run.spawnError !== undefined) {
    if (/ENOENT|EACCES|not found/i.test(run.spawnError))
      return `the program "${program}" is not installed or not executable (${run.spawnError})`;
    return undefined;
  }
  if (run.exitCode === 127) return `the command was not found (exit status 127): ${lastLine(run.outputTail)}`;
  if (run.exitCode === 126)
    return `the command is not executable (exit status 126): ${lastLine(run.outputTail)}`;
  if (run.exitCode === 0) return undefined;
  for (const match of run.outputTail.matchAll(/Cannot find (?:package|module) '([^']+)'/g)) {
    const name = match[1] ?? '';
    const root = packageRoot(name);
    if (argv.some((arg) => namesPackage(arg, name) || namesPackage(arg, root)))
      return `Cannot find package '${root}', which the command loads: install it where the check runs`;
  }
  return undefined;
}

/** `@scope/pkg/sub` -> `@scope/pkg`; `tsx/esm` -> `tsx`. */
function packageRoot(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** `tsx`, `--import=tsx`, `--require=ts-node/register` name the package. */
function namesPackage(arg: string, name: string): boolean {
  if (name === '' || name.startsWith('.') || name.startsWith('/')) return false;
  return arg === name || arg.endsWith(`=${name}`);
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines.at(-1) ?? '').slice(0, 200);
}
