import type { CallWindow } from '../core/rate-limits.ts';
import type { RateLimiter } from '../runner/rate-limiter.ts';
import type { PostgresPool } from '../store/postgres-pool.ts';
import { sleep } from '../util/retry.ts';

/** Calls older than this are deleted: longer than the longest window (a minute). */
const KEEP_SECONDS = 120;

/** The table of model calls let through, in the queue's schema (made by TrialQueue.open). */
export function rateCallsDdl(schema: string): string {
  return `CREATE TABLE IF NOT EXISTS "${schema}".rate_calls (key text NOT NULL, at timestamptz NOT NULL);
    CREATE INDEX IF NOT EXISTS rate_calls_key_at ON "${schema}".rate_calls (key, at)`;
}

/**
 * `rate_limits` over every worker: a sliding-window log of the calls let through, in PostgreSQL.
 * A call takes the key's transaction lock, and goes when fewer than `requests` calls of the key
 * are younger than the window (by the database's clock, the one clock all machines share);
 * otherwise it waits until the oldest of them leaves the window, and asks again. A worker that
 * dies holds nothing: its lock ends with its transaction, and its calls age out of the window.
 */
export class SharedRateLimiter implements RateLimiter {
  constructor(
    private readonly db: PostgresPool,
    private readonly schema: string,
  ) {}

  async acquire(key: string, limit: CallWindow, signal?: AbortSignal): Promise<void> {
    const table = `"${this.schema}".rate_calls`;
    for (;;) {
      signal?.throwIfAborted();
      const waitSeconds = await this.db.transaction(`count a ${key} model call`, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.schema}.rate.${key}`]);
        const { rows } = await client.query(
          `SELECT EXTRACT(EPOCH FROM at + make_interval(secs => $2) - clock_timestamp())::float8 AS wait
           FROM ${table} WHERE key = $1 AND at > clock_timestamp() - make_interval(secs => $2)
           ORDER BY at DESC OFFSET $3 LIMIT 1`,
          [key, limit.windowSeconds, limit.requests - 1],
        );
        const full = rows[0] as { wait: number } | undefined;
        if (full !== undefined) return Math.max(0.001, full.wait);
        await client.query(`INSERT INTO ${table} (key, at) VALUES ($1, clock_timestamp())`, [key]);
        await client.query(
          `DELETE FROM ${table} WHERE key = $1 AND at < clock_timestamp() - make_interval(secs => $2)`,
          [key, KEEP_SECONDS],
        );
        return 0;
      });
      if (waitSeconds === 0) return;
      // Rejects with the caller's reason (the harness hung up), not a bare AbortError.
      await sleep(waitSeconds * 1000, signal);
    }
  }
}
