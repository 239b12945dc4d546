import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { makeDirsSync } from '../util/make-dirs.ts';
import { checkVersion, migrate } from './migrations.ts';
import { openSqliteDatabase, type SqliteDatabase } from './sqlite-driver.ts';

export interface OpenedDatabase {
  readonly db: SqliteDatabase;
  /** Removes what opening made beside the file (a read-only snapshot), after `db.close()`. */
  readonly cleanup: () => void;
}

export interface SqliteOpenOptions {
  readonly mustExist?: boolean;
  readonly readonly?: boolean;
  readonly durability?: 'full' | 'normal';
  /** Milliseconds one statement waits for another process's lock before the caller retries. */
  readonly busyTimeoutMs: number;
}

/** "permission denied" and friends are the user's to fix, not a bug: say what and where. */
function cannotOpen(path: string, error: unknown): HarnessEvalError {
  const code = (error as { code?: unknown }).code;
  const message = errorMessage(error);
  const hint =
    code === 'EACCES' || code === 'EPERM' || /readonly|permission/i.test(message)
      ? ' (check the permissions of the file and its folder)'
      : '';
  return new HarnessEvalError('store', `cannot open ${path}: ${message}${hint}`, { cause: error });
}

/** The store file for writing: its folder is made, WAL is set and the schema migrated. */
function openForWriting(path: string, options: SqliteOpenOptions): OpenedDatabase {
  if (path !== ':memory:' && options.mustExist !== true) {
    try {
      makeDirsSync(dirname(path));
    } catch (error) {
      throw cannotOpen(path, error);
    }
  }
  let db: SqliteDatabase;
  try {
    db = openSqliteDatabase(path, { fileMustExist: options.mustExist === true });
  } catch (error) {
    if (options.mustExist === true && /unable to open|does not exist/i.test(errorMessage(error)))
      throw new HarnessEvalError('not_found', `no store at ${path}`, { cause: error });
    throw cannotOpen(path, error);
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs))}`);
    db.pragma('journal_mode = WAL');
    // WAL + NORMAL: a committed trial survives the process being killed (what resume relies on)
    // at ~1 ms per commit; FULL also survives power loss, at several ms of fsync per trial.
    db.pragma(options.durability === 'full' ? 'synchronous = FULL' : 'synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, path);
  } catch (error) {
    db.close();
    if (HarnessEvalError.is(error)) throw error;
    throw cannotOpen(path, error);
  }
  return { db, cleanup: () => {} };
}

function openReadOnlyAt(file: string, shownAs: string, busyTimeoutMs: number): SqliteDatabase {
  const db = openSqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
    if (checkVersion(db, shownAs) === 0)
      throw new HarnessEvalError('not_found', `${shownAs} holds no HarnessEval store (it has no tables)`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The store file for reading only: nothing is created, migrated or written. A WAL database needs
 * its `-shm` file; in a folder the user may not write, SQLite cannot make one and refuses even to
 * read ("attempt to write a readonly database"). Then the file (and its `-wal`, if any) is read
 * from a private snapshot copy in the temp folder instead.
 */
function openForReading(path: string, options: SqliteOpenOptions): OpenedDatabase {
  if (!existsSync(path)) throw new HarnessEvalError('not_found', `no store at ${path}`);
  try {
    return { db: openReadOnlyAt(path, path, options.busyTimeoutMs), cleanup: () => {} };
  } catch (error) {
    if (HarnessEvalError.is(error)) throw error;
    if (!/readonly|unable to open/i.test(errorMessage(error))) throw cannotOpen(path, error);
  }
  let snapshot: string | undefined;
  try {
    snapshot = mkdtempSync(join(tmpdir(), 'harnesseval-readonly-'));
    const copy = join(snapshot, 'store.db');
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    const dir = snapshot;
    return {
      db: openReadOnlyAt(copy, path, options.busyTimeoutMs),
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    if (snapshot !== undefined) rmSync(snapshot, { recursive: true, force: true });
    if (HarnessEvalError.is(error)) throw error;
    throw cannotOpen(path, error);
  }
}

/** Opens the SQLite file as the options say; every failure is a `store` or `not_found` error. */
export function openSqlite(path: string, options: SqliteOpenOptions): OpenedDatabase {
  return options.readonly === true ? openForReading(path, options) : openForWriting(path, options);
}
