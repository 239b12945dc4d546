import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
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
