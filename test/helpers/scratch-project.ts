import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './run-cli.ts';

interface LockEntry {
  readonly version?: string;
  readonly dev?: boolean;
  readonly link?: boolean;
  readonly [key: string]: unknown;
}

/** Runs a program without a shell; fails with its output when it does not exit 0. */
export function run(command: string, args: readonly string[], cwd: string): string {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    shell: false,
    env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false' },
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/**
 * Writes a user's project that depends on the packed tarball, with a lock file taken from this
 * repository's (the same versions, resolved URLs and integrity hashes), so that `npm ci --offline`
 * installs it from the npm cache without asking the registry. `@types/node` is a dev dependency,
 * as the README tells TypeScript users.
 */
export function writeScratchProject(dir: string, tarball: string): void {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
    bin: Record<string, string>;
    engines: Record<string, string>;
  };
  const typesNode = lock.packages['node_modules/@types/node']?.version;
  if (typesNode === undefined) throw new Error('package-lock.json has no @types/node');
  const manifest = {
    name: 'scratch-user-project',
    version: '1.0.0',
    private: true,
    type: 'module',
    dependencies: { harnesseval: `file:${tarball}` },
    devDependencies: { '@types/node': typesNode },
  };
  const packages: Record<string, unknown> = {
    '': manifest,
    'node_modules/harnesseval': {
      version: pkg.version,
      resolved: `file:${tarball}`,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  const typesClosure = new Set(['node_modules/@types/node', 'node_modules/undici-types']);
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.link === true) continue;
    if (entry.dev === true && !typesClosure.has(path)) continue;
    packages[path] = entry;
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(dir, 'package-lock.json'),
    `${JSON.stringify({ name: manifest.name, version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
}
