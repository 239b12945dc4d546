import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { RunRecord } from '../core/run-record.ts';

/**
 * One-line reasons for what node-postgres throws. A refused connection in Node 20 is an
 * AggregateError with an empty message (one error per address tried), so the code is read first.
 */

interface ErrorFields {
  readonly code?: unknown;
  readonly errors?: unknown;
  readonly address?: unknown;
  readonly port?: unknown;
  readonly hostname?: unknown;
}

function fields(error: unknown): ErrorFields {
  return typeof error === 'object' && error !== null ? (error as ErrorFields) : {};
}

/** The SQLSTATE (`23505`) or system code (`ECONNREFUSED`) of a driver error. */
export function pgCode(error: unknown): string | undefined {
  const { code, errors } = fields(error);
  if (typeof code === 'string') return code;
  if (Array.isArray(errors)) return pgCode(errors[0]);
  return undefined;
}

export function pgReason(error: unknown): string {
  const code = pgCode(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (is PostgreSQL running there?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `unknown host${typeof fields(error).hostname === 'string' ? ` ${String(fields(error).hostname)}` : ''}`;
    case 'ECONNRESET':
      return 'the server closed the connection';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    default: {
      const message = errorMessage(error).split('\n')[0]?.trim() ?? '';
      if (message === '') return code === undefined ? 'unknown error' : code;
      // node-postgres's connectionTimeoutMillis.
      if (/timeout exceeded when trying to connect/i.test(message)) return 'the connection timed out';
      return message;
    }
  }
}

/** SQLSTATE classes that mean the server could not be used at all (not one statement's fault). */
const CONNECTION_CODES = /^(08|28|3D|53|57P0)/;

export function isConnectionError(error: unknown): boolean {
  const code = pgCode(error);
  if (code === undefined) return /timeout exceeded when trying to connect/i.test(errorMessage(error));
  return code.startsWith('E') || CONNECTION_CODES.test(code);
}

/** Wraps a driver error as a `store` error: `cannot ACTION in STORE: reason`, the password never shown. */
export function storeError(action: string, shown: string, error: unknown, hide: string): HarnessEvalError {
  if (HarnessEvalError.is(error)) return error;
  let reason = pgReason(error);
  // Belt and braces: no driver message is known to echo a password, but none may.
  if (hide.length >= 4) reason = reason.split(hide).join('***');
  const what = isConnectionError(error) ? `cannot connect to ${shown}` : `cannot ${action} in ${shown}`;
  return new HarnessEvalError('store', `${what}: ${reason}`, {
    cause: error,
    data: { pgCode: pgCode(error) },
  });
}

/**
 * The unique key the write did not target was hit: replacing by run_id met another record of the
 * same trial, or committing a trial once met its run_id on another trial.
 */
export function repeatedTrial(
  experimentId: string,
  record: RunRecord,
  mode: 'replace' | 'once',
): HarnessEvalError {
  const trial = `task ${record.task_id} epoch ${record.epoch}`;
  const message =
    mode === 'replace'
      ? `experiment ${experimentId} already has a record of ${trial} under another run_id than ${record.run_id}`
      : `run_id ${record.run_id} of experiment ${experimentId} is already the record of another trial than ${trial}`;
  return new HarnessEvalError('invalid_input', message, {
    data: { experimentId, runId: record.run_id, taskId: record.task_id, epoch: record.epoch },
  });
}

/** A trial has one record: two records of one (task, epoch) would collide on the primary key. */
export function refuseRepeatedTrials(experimentId: string, records: readonly RunRecord[]): void {
  const seen = new Map<string, string>();
  for (const record of records) {
    const key = JSON.stringify([record.task_id, record.epoch]);
    const other = seen.get(key);
    if (other !== undefined) {
      throw new HarnessEvalError(
        'invalid_input',
        `experiment ${experimentId} has two records of task ${record.task_id} epoch ${record.epoch} (run_ids ${other} and ${record.run_id})`,
        { data: { experimentId, runId: record.run_id } },
      );
    }
    seen.set(key, record.run_id);
  }
}
