import type { ErrorKind } from '../core/agent-output.ts';
import { errorMessage } from '../core/errors.ts';

/**
 * Connection failures that are worth a retry: the peer dropped the connection or a timeout or
 * DNS hiccup happened on the way. A refused connection (ECONNREFUSED) or an unknown host
 * (ENOTFOUND) is NOT retried: it almost always means the server is not running or the URL is
 * wrong, and retrying only delays that report — it is a `config` error.
 */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const CONFIG_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ERR_INVALID_URL']);

/** The first `code` on the error or its `cause` chain (fetch wraps the socket error). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ('code' in current && typeof current.code === 'string') return current.code;
    current = 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}

export function networkErrorKind(error: unknown): ErrorKind {
  const code = errorCode(error);
  if (code === undefined) return 'agent';
  if (TRANSIENT_CODES.has(code)) return 'transient';
  return CONFIG_CODES.has(code) ? 'config' : 'agent';
}

/** `fetch failed` says nothing; the cause says what happened. */
export function networkErrorMessage(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? `: ${errorMessage(error.cause)}` : '';
  return `${errorMessage(error)}${cause}`;
}
