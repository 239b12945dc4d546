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
  return new loaded(path, options);
}

function nodeMajor(): number {
  return Number.parseInt(process.versions.node.split('.')[0] ?? '0', 10);
}
