import { resolve } from 'node:path';
import { redactStoreLocation, storeKind } from '../store/location.ts';
import type { ExperimentStore } from '../store/types.ts';

/**
 * The one place a command turns `--store` into a store: the flag, else `$HARNESSEVAL_STORE`,
 * else `.harnesseval/harnesseval.db`. A SQLite path is taken relative to the working folder; a
 * `postgres://` URL as it is. Messages name a store by `shownStore` (no password).
 */

export const DEFAULT_STORE_PATH = '.harnesseval/harnesseval.db';

/** The `--store` option's help, the same for every command. */
export const STORE_OPTION_HELP =
  'the store: a SQLite file or a postgres:// URL (default: $HARNESSEVAL_STORE, else .harnesseval/harnesseval.db)';

export interface StoreContext {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/** The store as the user named it (a relative path stays relative): for messages. */
export function chosenStore(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const fromEnv = env['HARNESSEVAL_STORE'];
  return flag ?? (fromEnv === undefined || fromEnv === '' ? DEFAULT_STORE_PATH : fromEnv);
}

/** The store to open: `chosenStore` with a SQLite path made absolute. */
export function storeLocation(flag: string | undefined, context: StoreContext): string {
  const chosen = chosenStore(flag, context.env);
  return storeKind(chosen) === 'sqlite' ? resolve(context.cwd, chosen) : chosen;
}

/** How messages name a store: a path as it is, a URL with its password as `***`. */
export function shownStore(location: string): string {
  return redactStoreLocation(location);
}

export interface OpenCliStoreOptions {
  /** Fail with `not_found` instead of creating the store (commands that only read). */
  readonly mustExist?: boolean;
  /** SQLite: open for reading only (a store in a read-only folder can still be listed). */
  readonly readonly?: boolean;
  readonly durability?: 'normal' | 'full';
  /** SQLite: how long, in all, a write waits for another process's lock. */
  readonly busyTimeoutMs?: number;
  /** Environment whose secrets are scrubbed before writing (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

/** Opens the store `--store`/`HARNESSEVAL_STORE` names; the store module (and its driver) loads only here. */
export async function openCliStore(
  location: string,
  options: OpenCliStoreOptions = {},
): Promise<ExperimentStore> {
  const { openStore } = await import('../store/index.ts');
  return openStore(location, options);
}
