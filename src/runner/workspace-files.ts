import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, open, readdir, readlink, realpath, rm, symlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { HarnessEvalError } from '../core/errors.ts';

/**
 * File operations on trial workspaces that a harness cannot turn against the machine. A harness
 * owns its workspace while it runs: it may plant symbolic links anywhere in it. So the runner
 * never follows a link it did not make: a starter's links are copied as links inside the copy,
 * and every file the runner writes back is written through real directories it checked.
 */

/** Whether `path` is `root` or inside it (both absolute and resolved). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** A starter's symbolic link that points outside its codebase. */
export interface EscapingLink {
  /** Relative to the codebase, `/`-separated. */
  readonly link: string;
  readonly target: string;
}

interface Entry {
  readonly rel: string;
  readonly kind: 'dir' | 'file' | 'link' | 'other';
}

/** The codebase's entries in a walk without recursion; `node_modules` folders are skipped. */
async function walk(root: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  const dirs = [''];
  while (dirs.length > 0) {
    const dir = dirs.pop() ?? '';
    for (const dirent of await readdir(join(root, dir), { withFileTypes: true })) {
      if (dirent.name === 'node_modules') continue;
      const rel = dir === '' ? dirent.name : `${dir}/${dirent.name}`;
      const kind = dirent.isSymbolicLink()
        ? 'link'
        : dirent.isDirectory()
          ? 'dir'
          : dirent.isFile()
            ? 'file'
            : 'other';
      entries.push({ rel, kind });
      if (kind === 'dir') dirs.push(rel);
    }
  }
  return entries;
}

/** Where a link in the codebase points, resolved without following it (nor any link in the target). */
async function linkTarget(root: string, rel: string): Promise<{ raw: string; resolved: string }> {
  const raw = await readlink(join(root, rel));
  return { raw, resolved: resolve(dirname(join(root, rel)), raw) };
}

/** The links of a codebase that point outside it (absolute or `../` ones); empty when it is self-contained. */
export async function escapingLinks(codebase: string): Promise<EscapingLink[]> {
  const root = await realpath(codebase);
  const out: EscapingLink[] = [];
  for (const entry of await walk(root)) {
    if (entry.kind !== 'link') continue;
    const { raw, resolved } = await linkTarget(root, entry.rel);
    if (!isInside(root, resolved)) out.push({ link: entry.rel, target: raw });
  }
  return out;
}

/**
 * Copies a starter codebase into `destination` (an empty folder). Folders and files are copied;
 * a symbolic link becomes a link relative to the copy, so that writing through it changes the
 * copy, never the starter (`fs.cp` had turned `../src/a.txt` into an absolute link into the
 * starter). A link that leaves the codebase is refused: `escapingLinks` reports them before a run.
 */
export async function copyCodebase(codebase: string, destination: string): Promise<void> {
  const root = await realpath(codebase);
  for (const entry of await walk(root)) {
    const to = join(destination, entry.rel);
    switch (entry.kind) {
      case 'dir':
        await mkdir(to, { recursive: true });
        break;
      case 'file':
        await copyFile(join(root, entry.rel), to);
        break;
      case 'link': {
        const { raw, resolved } = await linkTarget(root, entry.rel);
        if (!isInside(root, resolved)) {
          throw new HarnessEvalError(
            'invalid_input',
            `codebase ${codebase}: the link ${entry.rel} -> ${raw} points outside the codebase`,
          );
        }
        await symlink(relative(dirname(join(root, entry.rel)), resolved) || '.', to);
        break;
      }
      default:
        break; // sockets, FIFOs, devices: nothing a codebase needs, and nothing safe to copy
    }
  }
}

/**
 * Writes `bytes` to `file` (relative, `/`-separated) inside `workspace`, whatever the harness left
 * there: every folder on the way that is a link or not a folder is removed (the link itself, not
 * what it points to) and made again as a real folder; the file is opened with O_NOFOLLOW; and the
 * folder's real path must still be inside the workspace when the file is opened.
 */
export async function writeInside(workspace: string, file: string, bytes: Buffer): Promise<void> {
  const root = await realpath(workspace);
  const parts = file.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..'))
    throw new HarnessEvalError('internal', `not a path inside the workspace: ${file}`);
  let dir = root;
  for (const part of parts.slice(0, -1)) {
    dir = join(dir, part);
    const stat = await lstat(dir).catch(() => undefined);
    if (stat !== undefined && !stat.isDirectory()) await rm(dir, { recursive: true, force: true });
    if (stat === undefined || !stat.isDirectory()) await mkdir(dir);
  }
  const target = join(dir, parts[parts.length - 1] ?? '');
  const current = await lstat(target).catch(() => undefined);
  if (current !== undefined && !current.isFile()) await rm(target, { recursive: true, force: true });
  if (!isInside(root, await realpath(dir))) {
    throw new HarnessEvalError('agent_failed', `refusing to write ${file}: its folder leaves the workspace`);
  }
  const handle = await open(
    target,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
}

/** The bytes of `file` in the workspace when it is a regular file reached through real folders; else undefined. */
export async function readInside(workspace: string, file: string): Promise<Buffer | undefined> {
  const root = await realpath(workspace);
  const path = join(root, file);
  try {
    if (!isInside(root, await realpath(dirname(path)))) return undefined;
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return (await handle.stat()).isFile() ? await handle.readFile() : undefined;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
