import { existsSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import type { Task } from '../core/task.ts';

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
  await cp(codebase, path, {
    recursive: true,
    filter: (src) => !src.split(/[\\/]/).includes('node_modules'),
  });
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

/**
 * Files of the task's codebase that its automated criteria name in their commands (the
 * acceptance tests, as `node --test test/acceptance/ac-01.test.ts` names them), as paths relative
 * to the codebase. Words that are options, absolute, outside the codebase or not files are skipped.
 */
export function checkedFiles(task: Task): string[] {
  const codebase = task.files['codebase'];
  if (codebase === undefined) return [];
  const root = resolve(codebase);
  const files = new Set<string>();
  for (const criterion of task.criteria) {
    if (criterion.command === undefined) continue;
    for (const word of criterion.command.slice(1)) {
      if (word === '' || word.startsWith('-') || isAbsolute(word)) continue;
      const path = resolve(root, word);
      const inside = relative(root, path);
      if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) continue;
      try {
        if (statSync(path).isFile()) files.add(normalize(inside).split(sep).join('/'));
      } catch {
        // not a file of the codebase: an argument, a glob or a file the harness is to create
      }
    }
  }
  return [...files].sort();
}

/**
 * Puts back the task's own copy of every file its criteria run (see `checkedFiles`) that the
 * harness changed or deleted in the workspace, so that a harness cannot pass an acceptance test
 * by editing it. Returns the paths it restored, for the record.
 */
export async function restoreCheckedFiles(task: Task, workspace: string): Promise<string[]> {
  const codebase = task.files['codebase'];
  if (codebase === undefined) return [];
  const restored: string[] = [];
  for (const file of checkedFiles(task)) {
    const original = await readFile(join(codebase, file));
    const target = join(workspace, file);
    const current = await readFile(target).catch(() => undefined);
    if (current?.equals(original)) continue;
    await rm(target, { recursive: true, force: true });
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, original);
    restored.push(file);
  }
  return restored;
}
