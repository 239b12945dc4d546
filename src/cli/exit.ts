import { formatDiagnostic } from '../core/diagnostic.ts';
import { type ErrorCode, HarnessEvalError } from '../core/errors.ts';
import type { CliIO } from './io.ts';

/** Exit statuses used by every command. */
export const EXIT = {
  ok: 0,
  /** Invalid content, a missing file, a failed check (validation, threshold, regression). */
  failure: 1,
  /** Wrong command-line usage (and, for `run`, invalid input or configuration). */
  usage: 2,
  /** Interrupted by a signal (128 + SIGINT). */
  interrupted: 130,
} as const;

/** Thrown by a command to end with a given status after it has printed what it had to say. */
export class CliExit extends Error {
  constructor(readonly status: number) {
    super(`exit ${status}`);
    this.name = 'CliExit';
  }
}

const defaultStatus: Record<ErrorCode, number> = {
  invalid_input: EXIT.failure,
  invalid_config: EXIT.failure,
  not_found: EXIT.failure,
  usage: EXIT.usage,
  agent_failed: EXIT.failure,
  store: EXIT.failure,
  interrupted: EXIT.interrupted,
  internal: EXIT.failure,
};

/**
 * Prints an error the way the CLI always does — located diagnostics, then one message line —
 * and returns the exit status. A stack trace only with `--debug`.
 */
export function reportError(
  io: CliIO,
  error: unknown,
  overrides: Partial<Record<ErrorCode, number>> = {},
): number {
  if (error instanceof CliExit) return error.status;
  if (HarnessEvalError.is(error)) {
    for (const d of error.diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
    if (error.diagnostics.length === 0 || error.message !== '')
      io.stderr.write(`harnesseval: ${error.message}\n`);
    if (io.debug && error.stack) io.stderr.write(`${error.stack}\n`);
    if (io.debug && error.cause instanceof Error && error.cause.stack)
      io.stderr.write(`cause: ${error.cause.stack}\n`);
    return overrides[error.code] ?? defaultStatus[error.code];
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`harnesseval: internal error: ${message}\n`);
  if (io.debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else io.stderr.write('harnesseval: run again with --debug for details\n');
  return EXIT.failure;
}
