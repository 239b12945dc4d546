import { readFileSync } from 'node:fs';

// The build writes the version in (tsdown `define`); run from source, package.json is read.
declare const __HARNESSEVAL_VERSION__: string | undefined;

let version: string | undefined =
  typeof __HARNESSEVAL_VERSION__ === 'string' ? __HARNESSEVAL_VERSION__ : undefined;

/** The installed HarnessEval version, read once from package.json (found from src/ or dist/). */
export function harnessEvalVersion(): string {
  if (version !== undefined) return version;
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'harnesseval' && typeof pkg.version === 'string') {
        version = pkg.version;
        return version;
      }
    } catch {
      // not here; try the next location
    }
  }
  version = '0.0.0';
  return version;
}
