import type { Hash } from 'node:crypto';
import { createRequire } from 'node:module';

let crypto: typeof import('node:crypto') | undefined;

/**
 * A fresh SHA-256 hash. `node:crypto` loads on first use, not at import: it costs ~4 ms of every
 * CLI start, and `validate` of a dataset never hashes.
 */
export function newSha256(): Hash {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return crypto.createHash('sha256');
}
