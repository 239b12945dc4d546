import { join } from 'node:path';
import { storeKind } from './location.ts';
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
export { redactStoreLocation, type StoreKind, storeKind } from './location.ts';
export { MemoryStore, type MemoryStoreOptions } from './memory-store.ts';
export type { PostgresStoreOptions } from './postgres-store.ts';
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
  /**
   * `normal` (default: a record survives this process being killed) or `full` (power loss too,
   * at one fsync per record). SQLite: `synchronous` NORMAL or FULL; PostgreSQL:
   * `synchronous_commit` off or on.
   */
  readonly durability?: 'full' | 'normal';
  /** SQLite only: open for reading; nothing is created, migrated or written (implies `mustExist`). */
  readonly readonly?: boolean;
  /** SQLite only: how long, in all, a write waits for another process's lock (default 30,000 ms). */
  readonly busyTimeoutMs?: number;
}

/**
 * Opens the store a location names: a PostgreSQL server for `postgres://…` (it connects and
 * migrates; the `pg` driver loads only then), an in-memory store for `':memory:'` (nothing is
 * kept; for `--no-store` and tests), else the SQLite file at that path (its folder is created).
 *
 * @example const store = await openStore(defaultStorePath(process.cwd()));
 * @example const shared = await openStore('postgres://ci@db.internal/evals');
 */
export async function openStore(location: string, options: OpenStoreOptions = {}): Promise<ExperimentStore> {
  switch (storeKind(location)) {
    case 'memory':
      return new MemoryStore(options.env === undefined ? {} : { env: options.env });
    case 'postgres': {
      const { PostgresStore } = await import('./postgres-store.ts');
      return PostgresStore.open(location, {
        ...(options.env === undefined ? {} : { env: options.env }),
        ...(options.mustExist === undefined ? {} : { mustExist: options.mustExist }),
        ...(options.durability === undefined ? {} : { durability: options.durability }),
      });
    }
    case 'sqlite': {
      const { SqliteStore } = await import('./sqlite-store.ts');
      return new SqliteStore(location, options);
    }
  }
}
