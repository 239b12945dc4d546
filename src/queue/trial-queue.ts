import PgBoss from 'pg-boss';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { redactStoreLocation } from '../store/location.ts';
import { PostgresPool } from '../store/postgres-pool.ts';
import { chunks } from '../util/chunks.ts';
import { completeJobsFunctionDdl, openJobsIndexDdl } from './complete-jobs.ts';
import { exchangeJobsFunctionDdl, exchangeJobsSql } from './exchange-jobs.ts';
import { rateCallsDdl } from './shared-rate-limiter.ts';
import { activeJobsIndexDdl, takeJobsFunctionDdl, waitingJobsIndexDdl } from './take-job.ts';
import { TRIAL_QUEUE, type TrialJob } from './trial-job.ts';

/** A taken job: its id, what to run, and how often it was taken before (expired or failed). */
export interface TakenJob {
  readonly id: string;
  readonly data: unknown;
  readonly retryCount: number;
}

interface ExchangedRow {
  readonly id: string | null;
  readonly data: unknown;
  readonly retryCount: number | null;
  readonly drained: string | null;
}

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

/** Jobs taken again after a worker failed or vanished; then the job fails for good. */
const RETRY_LIMIT = 5;

/**
 * The trial queue: pg-boss on the store's own PostgreSQL database, in the schema next to the
 * store's (`harnesseval_queue` by default), so a scale-out needs one service. Open with `open`.
 */
export class TrialQueue {
  readonly location: string;
  readonly #boss: PgBoss;
  readonly #schema: string;
  /** Our own connections: taking a job (fairness rules) and the shared rate limits need transactions. */
  readonly #db: PostgresPool;
  #lastError: Error | undefined;

  private constructor(boss: PgBoss, schema: string, location: string, db: PostgresPool) {
    this.#boss = boss;
    this.#schema = schema;
    this.#db = db;
    this.location = location;
    // pg-boss reports connection trouble as events; without a listener Node would crash on them.
    boss.on('error', (error) => {
      this.#lastError = error;
    });
  }

  /** Connects, installs or upgrades pg-boss's schema, and makes sure the trial queue exists. */
  static async open(location: string): Promise<TrialQueue> {
    const shown = redactStoreLocation(location);
    const url = new URL(location);
    const schema = `${url.searchParams.get('schema') ?? 'harnesseval'}_queue`;
    url.searchParams.delete('schema');
    const boss = new PgBoss({
      connectionString: url.href,
      schema,
      max: 4,
      // Workers expire jobs themselves (expireJobs); no cron, no background maintenance timers.
      supervise: false,
      schedule: false,
      migrate: true,
    });
    const queue = new TrialQueue(boss, schema, shown, new PostgresPool(new URL(url.href), { poolSize: 3 }));
    try {
      await boss.start();
      // pg-boss's create_queue deadlocks between processes creating the same queue at once (workers
      // started together on a new database): one creates it while the others wait on a session
      // lock of our own (a process that dies lets go of it with its connection).
      await queue.#db.withClient('create the trial queue', async (client) => {
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [`${schema}.create-queue`]);
        try {
          if ((await boss.getQueue(TRIAL_QUEUE)) === null)
            await boss.createQueue(TRIAL_QUEUE, { name: TRIAL_QUEUE, retryLimit: RETRY_LIMIT });
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`${schema}.create-queue`]);
        }
      });
      // Two processes creating these at once would collide in the catalog: one at a time.
      await queue.#db.transaction('create the queue’s own table, indexes and functions', async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${schema}.ddl`]);
        await client.query(rateCallsDdl(schema));
        await client.query(activeJobsIndexDdl(schema));
        await client.query(waitingJobsIndexDdl(schema));
        await client.query(openJobsIndexDdl(schema));
        await client.query(takeJobsFunctionDdl(schema));
        await client.query(completeJobsFunctionDdl(schema));
        await client.query(exchangeJobsFunctionDdl(schema));
      });
    } catch (error) {
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
      await queue.#db.end().catch(() => undefined);
      throw new HarnessEvalError('store', `cannot open the queue in ${shown}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
    return queue;
  }

  /**
   * Adds jobs, 1,000 a statement, taken from `jobs` as they go in (a plan of a million trials is
   * never a list of a million jobs); a job whose id exists already is left as it is. Returns how
   * many were given.
   */
  async enqueue(
    jobs: Iterable<{ id: string; data: TrialJob; priority?: number }>,
    expireInSeconds: number,
  ): Promise<number> {
    let given = 0;
    for (const chunk of chunks(jobs, STATEMENT_IDS)) {
      const batch = chunk.map((job) => ({
        id: job.id,
        name: TRIAL_QUEUE,
        data: job.data,
        priority: job.priority ?? 0,
        expireInSeconds,
        retryLimit: RETRY_LIMIT,
        retryDelay: 0,
      }));
      await this.#run('enqueue trials', () => this.#boss.insert(batch));
      given += batch.length;
    }
    // Fresh statistics for the takes: a worker that polled an empty queue keeps the plan it made
    // for one (read every waiting job and sort them) until the table is analyzed, ~1 ms a take at
    // 4,000 jobs and growing with the queue; analyzed, every session plans again and walks the
    // waiting-jobs index (take-job.ts). A role that does not own the table is skipped with a warning.
    if (given > 0)
      await this.#db.withClient('analyze the queue', (client) =>
        client.query(`ANALYZE "${this.#schema}".job`),
      );
    return given;
  }

  /**
   * Completes the jobs among `done` still taken and takes up to `wanted` jobs this worker may run,
   * in one round trip (exchange-jobs.ts). Call it with a job in `done` only once its record is
   * committed. The take hands out the highest priority first, only jobs whose tags the worker has
   * all of, and never more of an experiment than its `max_in_flight` leaves room for (counting the
   * jobs completed here): takers queue on one transaction lock, so two workers cannot both see an
   * experiment one short of its limit and both take a job of it. `drained`: the experiments of
   * the completed jobs that now have no job waiting or running (complete-jobs.ts: exact over any
   * number of workers completing at once).
   */
  async exchange(
    done: readonly string[],
    workerTags: readonly string[],
    wanted: number,
  ): Promise<{ taken: TakenJob[]; drained: string[] }> {
    const take = Math.max(0, Math.trunc(wanted));
    if (done.length === 0 && take === 0) return { taken: [], drained: [] };
    const rows = await this.#db.withClient(take > 0 ? 'take jobs' : 'complete jobs', async (client) => {
      const result = await client.query({
        name: `harnesseval:${this.#schema}:exchange-jobs`,
        text: exchangeJobsSql(this.#schema),
        values: [TRIAL_QUEUE, done, JSON.stringify(workerTags), take],
      });
      return result.rows as ExchangedRow[];
    });
    const taken: TakenJob[] = [];
    const drained: string[] = [];
    for (const row of rows) {
      if (row.drained !== null) drained.push(row.drained);
      else if (row.id !== null) taken.push({ id: row.id, data: row.data, retryCount: row.retryCount ?? 0 });
    }
    if (this.#lastError !== undefined && take > 0 && taken.length === 0) {
      const error = this.#lastError;
      this.#lastError = undefined;
      throw new HarnessEvalError('store', `the queue in ${this.location} failed: ${error.message}`, {
        cause: error,
      });
    }
    return { taken, drained };
  }

  /** Takes up to `wanted` jobs (see `exchange`); none when none is waiting. */
  async take(workerTags: readonly string[], wanted: number): Promise<TakenJob[]> {
    return (await this.exchange([], workerTags, Math.max(1, wanted))).taken;
  }

  /** Completes the jobs among `ids` still taken; the experiments left with no open job (see `exchange`). */
  async complete(ids: readonly string[]): Promise<string[]> {
    return (await this.exchange(ids, [], 0)).drained;
  }

  /** Gives the job back as failed: it is taken again until it has been retried RETRY_LIMIT times. */
  async fail(id: string, message: string): Promise<void> {
    await this.#run('fail a job', () => this.#boss.fail(TRIAL_QUEUE, id, { message }));
  }

  /**
   * Gives jobs back untried, to be taken again after `delaySeconds`: a worker that refuses a job
   * (another version of the suite) must not use up the retries that workers able to run it have,
   * and a stopping worker hands back the jobs it took ahead of its free slots and never began.
   */
  async release(ids: readonly string[], delaySeconds: number): Promise<void> {
    if (ids.length === 0) return;
    await this.#run('release jobs', () =>
      this.#boss
        .getDb()
        .executeSql(
          `UPDATE "${this.#schema}".job SET state = 'created', started_on = NULL, start_after = now() + $3 * interval '1 second' WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`,
          [TRIAL_QUEUE, [...ids], delaySeconds],
        ),
    );
  }

  /** Jobs taken longer ago than their expiry (their worker died or hangs) go back to the queue. */
  async expireJobs(): Promise<void> {
    await this.#run('expire jobs', () => this.#boss.expire());
  }

  /** Cancels the jobs not yet done; returns how many were cancelled. */
  async cancel(ids: Iterable<string>): Promise<number> {
    let affected = 0;
    for (const chunk of chunks(ids, STATEMENT_IDS)) {
      const result = await this.#run('cancel jobs', () => this.#boss.cancel(TRIAL_QUEUE, chunk));
      affected += (result as unknown as { affected?: number } | undefined)?.affected ?? 0;
    }
    return affected;
  }

  /** Puts cancelled and failed jobs among `ids` back in the queue (a resumed experiment). */
  async requeue(ids: Iterable<string>): Promise<void> {
    for (const chunk of chunks(ids, STATEMENT_IDS)) {
      await this.#run('requeue jobs', () => this.#boss.resume(TRIAL_QUEUE, chunk));
      await this.#run('requeue jobs', () => this.#boss.retry(TRIAL_QUEUE, chunk));
    }
  }

  /**
   * The jobs among `ids` that were cancelled (`runs cancel`), and those that are gone: deleted with
   * their experiment (`runs delete`), or ended by another worker and deleted with the ended jobs of
   * their finished experiment (prune-jobs.ts). A worker holding them stops their trials.
   */
  async stoppedAmong(ids: readonly string[]): Promise<{ cancelled: string[]; gone: string[] }> {
    if (ids.length === 0) return { cancelled: [], gone: [] };
    const { rows } = await this.#run('read cancelled jobs', () =>
      this.#boss.getDb().executeSql(
        `SELECT h.id::text AS id, j.id IS NULL AS gone FROM unnest($2::uuid[]) AS h(id)
           LEFT JOIN "${this.#schema}".job j ON j.name = $1 AND j.id = h.id
           WHERE j.id IS NULL OR j.state = 'cancelled'`,
        [TRIAL_QUEUE, [...ids]],
      ),
    );
    const found = rows as { id: string; gone: boolean }[];
    return {
      cancelled: found.filter((row) => !row.gone).map((row) => row.id),
      gone: found.filter((row) => row.gone).map((row) => row.id),
    };
  }

  /** How many of these jobs are in each state (jobs never enqueued are not counted). */
  async states(ids: readonly string[]): Promise<Partial<Record<JobState, number>>> {
    const { rows } = await this.#run('read job states', () =>
      this.#boss
        .getDb()
        .executeSql(
          `SELECT state, count(*)::integer AS n FROM "${this.#schema}".job WHERE name = $1 AND id = ANY($2::uuid[]) GROUP BY state`,
          [TRIAL_QUEUE, [...ids]],
        ),
    );
    return Object.fromEntries((rows as { state: JobState; n: number }[]).map((row) => [row.state, row.n]));
  }

  /**
   * Whether the experiment has a job waiting, due for a retry or taken (one index probe: what a
   * follower asks every half second; counting the states of every job of the plan sent all their
   * ids each time, 3.6 MB and as many index probes a poll at 100,000 trials).
   */
  async hasOpenJobs(experimentId: string): Promise<boolean> {
    const { rows } = await this.#run('read open jobs', () =>
      this.#boss
        .getDb()
        .executeSql(
          `SELECT EXISTS (SELECT 1 FROM "${this.#schema}".job WHERE name = $1 AND state < 'completed' AND data->>'experiment_id' = $2) AS open`,
          [TRIAL_QUEUE, experimentId],
        ),
    );
    return (rows[0] as { open?: boolean } | undefined)?.open === true;
  }

  /** The message of the most recent failure among these jobs, if one failed. */
  async lastFailure(ids: readonly string[]): Promise<string | undefined> {
    const { rows } = await this.#run('read job failures', () =>
      this.#boss
        .getDb()
        .executeSql(
          `SELECT output->>'message' AS message FROM "${this.#schema}".job WHERE name = $1 AND id = ANY($2::uuid[]) AND output ? 'message' ORDER BY completed_on DESC NULLS LAST LIMIT 1`,
          [TRIAL_QUEUE, [...ids]],
        ),
    );
    const message = (rows[0] as { message?: unknown } | undefined)?.message;
    return typeof message === 'string' ? message : undefined;
  }

  /** The queue's own connections, for the rate limits shared by every worker (rate-limits.ts). */
  get db(): PostgresPool {
    return this.#db;
  }

  /** The schema the queue's tables are in. */
  get schema(): string {
    return this.#schema;
  }

  async close(): Promise<void> {
    await this.#boss.stop({ graceful: false, wait: true, close: true }).catch(() => undefined);
    await this.#db.end().catch(() => undefined);
  }

  async #run<T>(action: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw new HarnessEvalError('store', `cannot ${action} in ${this.location}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
  }
}

/** Job ids a statement at most: a plan's ids go in statements of this many. */
const STATEMENT_IDS = 1000;
