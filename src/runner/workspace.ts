import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Diagnostic } from '../core/diagnostic.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Task } from '../core/task.ts';
import { compileGlob } from '../util/glob.ts';
import {
  copyCodebase,
  type EscapingLink,
  escapingLinks,
  readInside,
  writeInside,
} from './workspace-files.ts';

/** A fresh copy of a task's starter codebase for one trial. */
export interface Workspace {
  readonly path: string;
  /** Removes the folder (unless it is kept); safe to call twice. */
  dispose(keep: boolean): Promise<void>;
}

/** Nearest `node_modules` at or above `from`, so tests inside a workspace can import the suite's tools. */
export function findNodeModules(from: string): string | undefined {
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, 'node_modules');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Copies `task.files.codebase` into a new temporary folder. When the codebase has no
 * `node_modules` of its own, the nearest one above it (or above the working directory) is linked
 * in, so its tests run offline with the tools the suite was written against.
 */
export async function createWorkspace(
  task: Task,
  options: { fallbackDir: string },
): Promise<Workspace | undefined> {
  const codebase = task.files['codebase'];
  if (codebase === undefined) return undefined;
  const safeId = task.id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
  const path = await mkdtemp(join(tmpdir(), `harnesseval-${safeId}-`));
  try {
    await copyCodebase(codebase, path);
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    throw error;
  }
  const modules = findNodeModules(codebase) ?? findNodeModules(options.fallbackDir);
  if (modules !== undefined) await symlink(modules, join(path, 'node_modules'), 'dir');
  let disposed = false;
  return {
    path,
    async dispose(keep: boolean) {
      if (disposed || keep) return;
      disposed = true;
      await rm(path, { recursive: true, force: true });
    },
  };
}

/** The codebase's files (relative, `/`-separated); `node_modules` and `.git` are not walked. */
async function codebaseFiles(root: string, dir = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== '.git')
        files.push(...(await codebaseFiles(root, path)));
    } else if (entry.isFile()) files.push(path);
  }
  return files.sort();
}

/** The files of the task's codebase that its `protected_files` globs match. */
export async function protectedFiles(task: Task): Promise<string[]> {
  const codebase = task.files['codebase'];
  const globs = task.protected_files ?? [];
  if (codebase === undefined || globs.length === 0) return [];
  const matchers = globs.map(compileGlob);
  return (await codebaseFiles(resolve(codebase))).filter((file) => matchers.some((matches) => matches(file)));
}

/** A task's protected files with their original bytes, read once per task, not once per trial. */
const originals = new WeakMap<
  Task,
  Promise<ReadonlyArray<{ readonly file: string; readonly bytes: Buffer }>>
>();

function protectedOriginals(
  task: Task,
): Promise<ReadonlyArray<{ readonly file: string; readonly bytes: Buffer }>> {
  let cached = originals.get(task);
  if (cached === undefined) {
    const codebase = task.files['codebase'];
    cached = protectedFiles(task).then((files) =>
      Promise.all(files.map(async (file) => ({ file, bytes: await readFile(join(codebase ?? '', file)) }))),
    );
    originals.set(task, cached);
  }
  return cached;
}

/**
 * Puts back the task's own copy of every protected file (see `protectedFiles`) that the harness
 * changed or deleted in the workspace, so that a harness cannot pass an acceptance test by
 * editing it. Returns the paths it restored, for the record.
 */
export async function restoreProtectedFiles(task: Task, workspace: string): Promise<string[]> {
  const restored: string[] = [];
  for (const { file, bytes } of await protectedOriginals(task)) {
    // Through real folders only: a harness may have replaced `test/` by a link to anywhere.
    const current = await readInside(workspace, file);
    if (current?.equals(bytes)) continue;
    await writeInside(workspace, file, bytes);
    restored.push(file);
  }
  return restored;
}

/**
 * Refuses, before the first trial, a codebase with a symbolic link that leaves it: the harness
 * could write through such a link into the machine, and every trial would see what the one
 * before it wrote there. Located at the task (its file and line) with the link named.
 */
export async function checkCodebases(tasks: readonly Task[]): Promise<void> {
  const seen = new Map<string, Promise<EscapingLink[]>>();
  const diagnostics: Diagnostic[] = [];
  for (const task of tasks) {
    const codebase = task.files['codebase'];
    if (codebase === undefined) continue;
    if (seen.has(codebase)) continue; // each codebase once, at the first task that uses it
    const links = escapingLinks(codebase).catch(() => []); // unreadable: createWorkspace says why
    seen.set(codebase, links);
    for (const { link, target } of await links) {
      diagnostics.push({
        file: task.source?.file ?? codebase,
        line: task.source?.line ?? 0,
        col: task.source?.line === undefined ? 0 : 1,
        path: 'files.codebase',
        message: `task ${task.id}: the codebase's link ${link} -> ${target} points outside ${codebase}`,
        expected: 'symbolic links that stay inside the codebase',
        severity: 'error',
      });
    }
  }
  if (diagnostics.length > 0)
    throw new HarnessEvalError('invalid_input', 'a starter codebase links outside itself', { diagnostics });
}
