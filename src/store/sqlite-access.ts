import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { isBusy, retryWhileBusy } from './busy-retry.ts';
import type { SqliteDatabase } from './sqlite-driver.ts';

/**
 * One SQLite connection as the store's parts (sqlite-store.ts, sqlite-reads.ts,
 * sqlite-bookkeeping.ts, sqlite-annotations.ts) use it: every read and write goes through `read`
 * or `write`, so a closed store, a damaged file or another process's write lock always becomes a
 * `store` error naming the file.
 */
export class SqliteAccess {
  readonly db: SqliteDatabase;
  readonly path: string;
  readonly #busyBudgetMs: number;

  constructor(db: SqliteDatabase, path: string, busyBudgetMs: number) {
    this.db = db;
    this.path = path;
    this.#busyBudgetMs = busyBudgetMs;
  }

  read<T>(fn: () => T): T {
    this.#ensureOpen();
    try {
      return fn();
    } catch (error) {
      if (HarnessEvalError.is(error)) throw error;
      throw new HarnessEvalError('store', `cannot read ${this.path}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
  }

  /** Runs `fn`, retried while another process holds the write lock, for up to the busy budget. */
  async write<T>(action: string, fn: () => T): Promise<T> {
    this.#ensureOpen();
    try {
      return await retryWhileBusy(fn, this.#busyBudgetMs);
    } catch (error) {
      if (HarnessEvalError.is(error)) throw error;
      const busy = isBusy(error);
      const reason = busy
        ? `another process held the write lock for more than ${seconds(this.#busyBudgetMs)}`
        : errorMessage(error);
      throw new HarnessEvalError('store', `cannot ${action} in ${this.path}: ${reason}`, {
        cause: error,
        data: { busy },
      });
    }
  }

  notFound(experimentId: string): HarnessEvalError {
    return new HarnessEvalError('not_found', `no experiment ${experimentId} in ${this.path}`, {
      data: { experimentId },
    });
  }

  #ensureOpen(): void {
    if (!this.db.open) throw new HarnessEvalError('store', `the store ${this.path} is closed`);
  }
}

function seconds(ms: number): string {
  return `${ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000)} s`;
}

/** Parsed JSON, or undefined when the text is not JSON (a damaged row). */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
