import pg from 'pg';
import { HarnessEvalError } from '../core/errors.ts';
import { redactStoreLocation } from './location.ts';
import { storeError } from './postgres-errors.ts';

export interface PostgresPoolOptions {
  readonly poolSize?: number | undefined;
  readonly connectTimeoutMs?: number | undefined;
  readonly durability?: 'full' | 'normal' | undefined;
}

/**
 * The store's connections: a node-postgres pool, and the one place driver errors become `store`
 * errors that name the server with its password as `***`.
 */
export class PostgresPool {
  /** The URL with its password replaced by `***`: what messages print. */
  readonly location: string;
  readonly #pool: pg.Pool;
  readonly #password: string;
  #closed = false;

  constructor(url: URL, options: PostgresPoolOptions) {
    this.#password = decodeURIComponent(url.password);
    this.location = redactStoreLocation(url.href);
    // A startup option: no extra round trip. In the URL, because node-postgres lets a URL's own
    // `options=` override the config's.
    const given = url.searchParams.get('options');
    const commit = options.durability === 'full' ? 'on' : 'off';
    url.searchParams.set('options', `${given === null ? '' : `${given} `}-c synchronous_commit=${commit}`);
    this.#pool = new pg.Pool({
      connectionString: url.href,
      max: Math.max(1, Math.trunc(options.poolSize ?? 10)),
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      idleTimeoutMillis: 10_000,
      // A server that vanishes without closing the socket fails the query instead of hanging the run.
      keepAlive: true,
      application_name: 'harnesseval',
    });
    // An idle connection the server drops emits 'error' on the pool; unhandled, it would end the
    // process. The next query simply takes a new connection.
    this.#pool.on('error', () => undefined);
  }

  /** Runs `use` on a connection of the pool; `action` names the work in error messages. */
  async withClient<T>(action: string, use: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.#closed) throw new HarnessEvalError('store', `the store ${this.location} is closed`);
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw storeError(action, this.location, error, this.#password);
    }
    let broken: Error | undefined;
    try {
      return await use(client);
    } catch (error) {
      // Only the server's own errors (with a severity) leave the connection usable; a socket
      // that failed mid-query is closed, not handed to the next caller.
      if (!HarnessEvalError.is(error) && !isServerError(error)) broken = new Error('connection failed');
      throw storeError(action, this.location, error, this.#password);
    } finally {
      client.release(broken);
    }
  }

  /** `withClient` inside BEGIN (or `begin`) … COMMIT, rolled back when `use` throws. */
  async transaction<T>(
    action: string,
    use: (client: pg.PoolClient) => Promise<T>,
    begin = 'BEGIN',
  ): Promise<T> {
    return this.withClient(action, async (client) => {
      await client.query(begin);
      try {
        const result = await use(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  async end(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }
}

function isServerError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { severity?: unknown }).severity === 'string'
  );
}
