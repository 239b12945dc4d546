import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Another process holding the SQLite write lock (a `sqlite3` shell in a transaction, a backup, a
 * second run) makes a statement fail with SQLITE_BUSY once its busy timeout is over. The timeout
 * itself blocks the event loop, so it is kept short, and the write is retried here with growing
 * pauses, without blocking, until `budgetMs` have passed. A transaction that failed was rolled
 * back, so running it again is safe.
 */
export function isBusy(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

export async function retryWhileBusy<T>(write: () => T, budgetMs: number): Promise<T> {
  const deadline = performance.now() + budgetMs;
  let pause = 25;
  for (;;) {
    try {
      return write();
    } catch (error) {
      if (!isBusy(error) || performance.now() + pause > deadline) throw error;
      await sleep(pause);
      pause = Math.min(pause * 2, 1000);
    }
  }
}
