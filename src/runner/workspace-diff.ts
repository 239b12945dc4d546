import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { WorkspaceDiff } from '../core/run-record.ts';
import { unifiedDiff } from '../util/unified-diff.ts';

const SKIP = new Set(['node_modules', '.git']);
/** Larger files are named, not diffed: a diff a grader cannot read helps nobody. */
const MAX_FILE_BYTES = 512 * 1024;
export const MAX_DIFF_BYTES = 60_000;

async function listFiles(root: string, dir = root, out: string[] = []): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (SKIP.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) await listFiles(root, full, out);
    else if (entry.isFile()) out.push(relative(root, full).split('\\').join('/'));
  }
  return out;
}

async function read(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch {
    return undefined;
  }
}

/** NUL bytes in the first 8 KB: what git and diff call binary. */
const isBinary = (bytes: Buffer) => bytes.subarray(0, 8192).includes(0);

/**
 * What the harness changed in `workspace` against the starter `codebase`: every added, changed
 * and removed file, and a unified diff of the text ones, in path order, cut at `maxBytes`.
 * `redact` runs over the diff (secret values from the environment must not reach the store or a
 * judge).
 */
export async function workspaceDiff(
  codebase: string,
  workspace: string,
  options: { maxBytes?: number; redact?: (text: string) => string } = {},
): Promise<WorkspaceDiff> {
  const maxBytes = options.maxBytes ?? MAX_DIFF_BYTES;
  const [before, after] = await Promise.all([listFiles(codebase), listFiles(workspace)]);
  const paths = [...new Set([...before, ...after])].sort();
  const beforeSet = new Set(before);
  const afterSet = new Set(after);
  const files: WorkspaceDiff['files'] = [];
  const parts: string[] = [];
  for (const path of paths) {
    const [a, b] = await Promise.all([
      beforeSet.has(path) ? read(join(codebase, path)) : undefined,
      afterSet.has(path) ? read(join(workspace, path)) : undefined,
    ]);
    if (a !== undefined && b !== undefined && a.equals(b)) continue;
    const status = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    files.push({ path, status });
    const sizes = (a?.length ?? 0) + (b?.length ?? 0);
    if ((a !== undefined && isBinary(a)) || (b !== undefined && isBinary(b)))
      parts.push(`Binary file ${path} ${status}\n`);
    else if (sizes > MAX_FILE_BYTES)
      parts.push(`File ${path} ${status} (${sizes} bytes, too large to show)\n`);
    else parts.push(unifiedDiff(path, a?.toString('utf8') ?? '', b?.toString('utf8') ?? ''));
  }
  const full = options.redact === undefined ? parts.join('') : options.redact(parts.join(''));
  // The limit and the count are in UTF-8 bytes, what the store and a reader's tools count.
  const bytes = Buffer.from(full, 'utf8');
  if (bytes.length <= maxBytes) return { files, diff: full, omitted_bytes: 0 };
  const kept = bytes.subarray(0, cutAt(bytes, maxBytes));
  return { files, diff: kept.toString('utf8'), omitted_bytes: bytes.length - kept.length };
}

/**
 * Where to cut `bytes` to keep at most `maxBytes`: after the last line end that fits, else (one
 * long line) before the UTF-8 sequence the limit falls in, so no character is split.
 */
function cutAt(bytes: Buffer, maxBytes: number): number {
  const lineEnd = bytes.lastIndexOf(0x0a, maxBytes - 1);
  if (lineEnd >= 0) return lineEnd + 1;
  let end = maxBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return end;
}

/** The diff as a grader reads it: the file list, the diff, and what was left out. */
export function diffText(diff: WorkspaceDiff): string {
  if (diff.files.length === 0) return '(no files changed)';
  const list = diff.files.map((f) => `${f.status} ${f.path}`).join('\n');
  const tail = diff.omitted_bytes > 0 ? `\n[... ${diff.omitted_bytes} more bytes of diff not shown]` : '';
  return `Files:\n${list}\n\nDiff against the starter codebase:\n${diff.diff}${tail}`;
}
