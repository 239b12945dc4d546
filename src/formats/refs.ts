import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Diagnostic } from '../core/diagnostic.ts';
import { type FieldPath, type Locate, located } from './issues.ts';

export const REF_PREFIX = 'ref:';

/** `ref:specs/auth.md` -> `specs/auth.md`; undefined for a plain value. */
export function refTarget(value: string): string | undefined {
  return value.startsWith(REF_PREFIX) ? value.slice(REF_PREFIX.length).trim() : undefined;
}

/**
 * Resolves a path relative to the file that holds it and checks that it exists as the right
 * kind of entry. A missing one is reported at the ref, naming the ref and the holding file.
 */
export function resolveRef(
  holder: string,
  target: string,
  want: 'file' | 'directory',
  where: { locate: Locate; path: FieldPath; diagnostics: Diagnostic[] },
): string | undefined {
  const absolute = isAbsolute(target) ? target : resolve(dirname(holder), target);
  let isDirectory: boolean | undefined;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch {
    isDirectory = undefined;
  }
  const problem =
    isDirectory === undefined
      ? `ref "${target}" not found (resolved to ${absolute})`
      : want === 'directory' && !isDirectory
        ? `ref "${target}" is a file (resolved to ${absolute}), not a directory`
        : want === 'file' && isDirectory
          ? `ref "${target}" is a directory (resolved to ${absolute}), not a file`
          : undefined;
  if (problem === undefined) return absolute;
  where.diagnostics.push(
    located(holder, where.locate(where.path), where.path, problem, `an existing ${want}`),
  );
  return undefined;
}
