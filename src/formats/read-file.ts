import { readFileSync, statSync } from 'node:fs';
import type { Diagnostic } from '../core/diagnostic.ts';
import { HarnessEvalError } from '../core/errors.ts';
import { newSha256 } from '../util/sha256.ts';

/** Fails with `not_found` (naming the path) unless `path` is an existing file. */
export function assertFile(path: string): void {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch (error) {
    throw new HarnessEvalError('not_found', `file not found: ${path}`, { cause: error, data: { path } });
  }
  if (!isFile) throw new HarnessEvalError('invalid_input', `not a file: ${path}`, { data: { path } });
}

export interface DocumentText {
  readonly text: string;
  readonly hash: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** Reads a whole document as UTF-8; invalid UTF-8 is a located diagnostic, not a replacement char. */
export function readDocument(path: string): DocumentText {
  assertFile(path);
  const bytes = readFileSync(path);
  const hash = newSha256().update(bytes).digest('hex');
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { text, hash, diagnostics: [] };
  } catch {
    const good = validPrefix(bytes);
    const lines = good.split('\n');
    const line = lines.length;
    const col = [...(lines[lines.length - 1] ?? '')].length + 1;
    return {
      text: '',
      hash,
      diagnostics: [
        {
          file: path,
          line,
          col,
          path: '',
          message: 'invalid UTF-8',
          expected: 'UTF-8 text',
          severity: 'error',
        },
      ],
    };
  }
}

function validPrefix(bytes: Uint8Array): string {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    try {
      decoder.decode(bytes.subarray(0, mid));
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return new TextDecoder().decode(bytes.subarray(0, lo));
}

/** sha256 over several files' hashes, in order: a suite's identity includes its task files. */
export function combinedHash(hashes: readonly string[]): string {
  if (hashes.length === 1) return hashes[0] as string;
  const h = newSha256();
  for (const x of hashes) h.update(x);
  return h.digest('hex');
}

export function fileHash(path: string): string {
  return newSha256().update(readFileSync(path)).digest('hex');
}
