import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * `mkdir -p` without `{ recursive: true }`: Node's recursive mkdir loops forever where a parent
 * exists but a child cannot be made in it (`/proc/x/y`: mkdir says ENOENT, the parent EEXIST, and
 * round again), which hung `run -o /proc/x/r.md` after the run. Here each missing folder is made
 * once, top down, and the first refusal is the error.
 */
function missingFolders(path: string, exists: (p: string) => boolean): string[] {
  const missing: string[] = [];
  for (let dir = path; !exists(dir); dir = dirname(dir)) {
    missing.push(dir);
    if (dirname(dir) === dir) break;
  }
  return missing.reverse();
}

function isExists(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'EEXIST';
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

export function makeDirsSync(path: string): void {
  for (const dir of missingFolders(path, exists)) {
    try {
      mkdirSync(dir);
    } catch (error) {
      if (!isExists(error)) throw error;
    }
  }
}

export async function makeDirs(path: string): Promise<void> {
  // The walk up is synchronous (a few stat calls); the folders are made without blocking.
  for (const dir of missingFolders(path, exists)) {
    try {
      await mkdir(dir);
    } catch (error) {
      if (!isExists(error)) throw error;
    }
  }
  if (!(await stat(path)).isDirectory()) {
    throw Object.assign(new Error(`${path} is not a folder`), { code: 'ENOTDIR' });
  }
}
