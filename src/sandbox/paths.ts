import { isAbsolute, posix, relative } from 'node:path';

/** A host folder and where it is seen inside a sandbox. */
export interface PathMapping {
  readonly host: string;
  readonly target: string;
}

function under(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  if (rel === '') return '';
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel;
}

/**
 * The path inside the sandbox for a host path under one of the mappings (the longest match
 * wins); a path under none is returned as it is (it is mounted at the same place, or absent).
 */
export function insidePath(mappings: readonly PathMapping[], hostPath: string): string {
  let best: { mapping: PathMapping; rel: string } | undefined;
  for (const mapping of mappings) {
    const rel = under(mapping.host, hostPath);
    if (rel !== undefined && (best === undefined || mapping.host.length > best.mapping.host.length))
      best = { mapping, rel };
  }
  if (best === undefined) return hostPath;
  return best.rel === ''
    ? best.mapping.target
    : posix.join(best.mapping.target, best.rel.split('\\').join('/'));
}

/** The host path behind a path inside the sandbox, when it lies under a mapping. */
export function hostPath(mappings: readonly PathMapping[], target: string): string | undefined {
  let best: { mapping: PathMapping; rel: string } | undefined;
  for (const mapping of mappings) {
    const rel = posix.relative(mapping.target, target);
    if (rel.startsWith('..') || posix.isAbsolute(rel)) continue;
    if (best === undefined || mapping.target.length > best.mapping.target.length) best = { mapping, rel };
  }
  if (best === undefined) return undefined;
  return best.rel === '' ? best.mapping.host : `${best.mapping.host}/${best.rel}`;
}
