import { join } from 'node:path';
import { MemoryStore } from './memory-store.ts';
import type { ExperimentStore } from './types.ts';

export {
  experimentToJson,
  exportExperiment,
  importExperiment,
  parseExperimentJson,
  readExperimentFile,
  storeExperiment,
} from './json-io.ts';
export { MemoryStore, type MemoryStoreOptions } from './memory-store.ts';
export { redactSecrets } from './redact.ts';
export { resolveExperimentId } from './resolve-id.ts';
export type {
  ChildProcessRecord,
  LeaseHolder,
  ProcessRef,
  StoredChildProcess,
} from './run-bookkeeping.ts';
export type { SqliteStoreOptions } from './sqlite-store.ts';
export type { ExperimentFilter, ExperimentPatch, ExperimentStore, ExperimentSummary } from './types.ts';

/** Where `run` and `runs` keep experiments unless `--store` says otherwise. */
export function defaultStorePath(cwd: string): string {
  return join(cwd, '.harnesseval', 'harnesseval.db');
}

export interface OpenStoreOptions {
  /** Environment whose secret-looking values are scrubbed before writing (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Fail with `not_found` instead of creating a new file (for commands that only read). */
  readonly mustExist?: boolean;
  /** SQLite only: `full` (default, survives power loss) or `normal` (survives a process crash). */
  readonly durability?: 'full' | 'normal';
  /** SQLite only: open for reading; nothing is created, migrated or written (implies `mustExist`). */
  readonly readonly?: boolean;
  /** SQLite only: how long, in all, a write waits for another process's lock (default 30,000 ms). */
  readonly busyTimeoutMs?: number;
}

/**
 * Opens the SQLite store at `path` (its folder is created), or an in-memory store for `':memory:'`
 * (nothing is kept; for `--no-store` and tests). The SQLite driver is loaded only here.
 *
 * @example const store = await openStore(defaultStorePath(process.cwd()));
 */
export async function openStore(path: string, options: OpenStoreOptions = {}): Promise<ExperimentStore> {
  if (path === ':memory:') return new MemoryStore(options.env === undefined ? {} : { env: options.env });
  const { SqliteStore } = await import('./sqlite-store.ts');
  return new SqliteStore(path, options);
}
