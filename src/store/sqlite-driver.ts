import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

export type SqliteDatabase = BetterSqlite3.Database;
type DatabaseConstructor = typeof BetterSqlite3;

/**
 * The SQLite driver for this Node.js. better-sqlite3 12 is a V8 addon compiled at install; on
 * Node 24 it aborts the process when the GC finalises one of its statements (Node 24's
 * `ObjectWrap` asserts `(env) != nullptr` in `RemoveEnvironmentCleanupHook`). better-sqlite3 13
 * is a Node-API addon with prebuilt binaries in its package, fixed there — but it crashes on
 * Node 20. So Node 20 loads 12 (`better-sqlite3`) and Node 22 and newer load 13
 * (`better-sqlite3-napi`, an npm alias). Both have the same API; the store contract suite runs on
 * each version in CI (.ci/run).
 */
export const SQLITE_DRIVER: string = nodeMajor() >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

let loaded: DatabaseConstructor | undefined;

/** Opens (or creates) a SQLite database with the driver for this Node.js. */
export function openSqliteDatabase(path: string, options: BetterSqlite3.Options = {}): SqliteDatabase {
  loaded ??= createRequire(import.meta.url)(SQLITE_DRIVER) as DatabaseConstructor;
  const db = new loaded(path, options);
  db.pragma(`cache_size = ${-PAGE_CACHE_KIB}`);
  return db;
}

/**
 * SQLite's page cache per connection, in KiB. better-sqlite3 builds SQLite with 16 MiB, which a
 * long run fills with the pages of records it will not read again: 12 of the MiB that put 100,000
 * trials over the 250 MB target (237 against 250 MB peak RSS, bench/README.md). Writes append; reads stream an experiment's
 * records once, from the OS's cache.
 */
export const PAGE_CACHE_KIB = 4096;

function nodeMajor(): number {
  return Number.parseInt(process.versions.node.split('.')[0] ?? '0', 10);
}
