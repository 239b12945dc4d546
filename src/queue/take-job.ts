/**
 * Taking trial jobs, several per round trip. The rules are pg-boss 10's own fetch (`plans.js`
 * fetchNextJob: state below `active`, due, highest priority then oldest, `FOR UPDATE SKIP LOCKED`,
 * `retry_count` up when the job was taken before) with two more read from the job's data:
 * - `tags`: the job goes only to a worker whose tags (a JSON array) include all of them;
 * - `max_in_flight`: at most that many jobs of its experiment are `active`, counting the ones
 *   this take hands out (ranked within the experiment, so one take cannot overshoot the limit).
 *
 * It is a PL/pgSQL function so that one statement is one round trip and still takes the takers'
 * transaction lock *before* it counts the active jobs: each statement in a volatile function reads
 * a new snapshot, so the count is the one the last taker committed, over any number of workers.
 * The name carries a version: a changed body gets a new name, and workers of two releases never
 * replace each other's function while both run.
 */

/** A PostgreSQL string literal. */
export function sqlLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The takers' lock key: the same one the one-job take of earlier releases used. */
function takeLockKey(schema: string): string {
  return sqlLiteral(`${schema}.take`);
}

export function takeJobsFunctionDdl(schema: string): string {
  const job = `"${schema}".job`;
  return `
    CREATE OR REPLACE FUNCTION "${schema}".harnesseval_take_jobs_v1(queue_name text, worker_tags jsonb, wanted integer)
    RETURNS TABLE (job_id uuid, job_data jsonb, job_retry_count integer)
    LANGUAGE plpgsql VOLATILE AS $take$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext(${takeLockKey(schema)}));
      RETURN QUERY
      WITH active AS (
        SELECT a.data->>'experiment_id' AS experiment_id, count(*)::integer AS n
        FROM ${job} a
        WHERE a.name = queue_name AND a.state = 'active' AND a.data ? 'max_in_flight'
        GROUP BY 1
      ), candidates AS (
        SELECT j.id, j.priority, j.created_on, j.data->>'experiment_id' AS experiment_id,
          (j.data->>'max_in_flight')::integer AS max_in_flight
        FROM ${job} j
        WHERE j.name = queue_name
          AND j.state < 'active'
          AND j.start_after < now()
          AND COALESCE(j.data->'tags', '[]'::jsonb) <@ worker_tags
          AND NOT EXISTS (
            SELECT 1 FROM active l
            WHERE l.experiment_id = j.data->>'experiment_id' AND l.n >= (j.data->>'max_in_flight')::integer)
        ORDER BY j.priority DESC, j.created_on, j.id
        LIMIT wanted
        FOR UPDATE OF j SKIP LOCKED
      ), ranked AS (
        SELECT c.id, c.experiment_id, c.max_in_flight,
          row_number() OVER (PARTITION BY c.experiment_id ORDER BY c.priority DESC, c.created_on, c.id) AS rank
        FROM candidates c
      ), chosen AS (
        SELECT r.id FROM ranked r LEFT JOIN active a ON a.experiment_id = r.experiment_id
        WHERE r.max_in_flight IS NULL OR r.rank <= r.max_in_flight - COALESCE(a.n, 0)
      ), taken AS (
        UPDATE ${job} j SET
          state = 'active',
          started_on = now(),
          retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
        FROM chosen
        WHERE j.name = queue_name AND j.id = chosen.id
        RETURNING j.id, j.data, j.retry_count, j.priority, j.created_on
      )
      SELECT t.id, t.data, t.retry_count FROM taken t ORDER BY t.priority DESC, t.created_on, t.id;
    END
    $take$`;
}

/**
 * The waiting jobs in the order a take hands them out. pg-boss's own index on waiting jobs is by
 * start time, so its fetch (and ours) read every waiting job and sorted them on each take: ~1 ms
 * a take with 4,000 trials queued, growing with the queue. Walking this index, a take reads the
 * jobs it hands out and those it skips (locked, not yet due, tagged for others, over a limit).
 */
export function waitingJobsIndexDdl(schema: string): string {
  return `CREATE INDEX IF NOT EXISTS harnesseval_waiting_jobs ON "${schema}".job (name, priority DESC, created_on, id) WHERE state < 'active'`;
}

/**
 * The active jobs, found by an index: a take counts them per experiment, and pg-boss's own
 * indexes cover only waiting jobs (the table keeps every finished trial's job as well).
 */
export function activeJobsIndexDdl(schema: string): string {
  return `CREATE INDEX IF NOT EXISTS harnesseval_active_jobs ON "${schema}".job (name) WHERE state = 'active'`;
}
