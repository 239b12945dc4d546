import type { Diagnostic } from './diagnostic.ts';

/**
 * Stable error codes. The CLI maps each to a message and an exit status; library users
 * branch on `code` instead of parsing messages.
 */
export type ErrorCode =
  | 'invalid_input' // user data (a dataset, suite, benchmark) is malformed
  | 'invalid_config' // a harness config, plugin name or option is wrong
  | 'not_found' // a file, experiment or plugin does not exist
  | 'usage' // wrong command-line usage
  | 'agent_failed' // the harness under test failed in a way that stops the run
  | 'store' // the result store cannot be read or written
  | 'interrupted' // the run was stopped by a signal
  | 'internal'; // a bug in HarnessEval

export interface HarnessEvalErrorOptions {
  readonly cause?: unknown;
  readonly diagnostics?: readonly Diagnostic[];
  readonly data?: Readonly<Record<string, unknown>>;
}

/** The one error base class: a string `code`, typed `data`, located `diagnostics`, and the `cause`. */
export class HarnessEvalError extends Error {
  readonly code: ErrorCode;
  readonly diagnostics: readonly Diagnostic[];
  readonly data: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: HarnessEvalErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HarnessEvalError';
    this.code = code;
    this.diagnostics = options.diagnostics ?? [];
    this.data = options.data ?? {};
  }

  static is(value: unknown): value is HarnessEvalError {
    return value instanceof HarnessEvalError;
  }
}

/** A `safeX` result: `{ ok: true, value }` or `{ ok: false, error }`. */
export type Result<T, E = HarnessEvalError> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

export function fail<E>(error: E): Result<never, E> {
  return { ok: false, error };
}

/** The message of any thrown value, without losing it when it is not an Error. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
