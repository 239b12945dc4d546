/**
 * The statement that takes one trial job: pg-boss 10's own fetch (`plans.js` fetchNextJob: state
 * below `active`, due, highest priority then oldest, `FOR UPDATE SKIP LOCKED`, `retry_count` up
 * when the job was taken before) with two more conditions read from the job's data:
 * - `tags`: the job goes only to a worker whose tags ($2, a JSON array) include all of them;
 * - `max_in_flight`: the job waits while that many jobs of its experiment are `active` (`at_limit`).
 * Run it under the taker's transaction lock (TrialQueue.take): the count of active jobs is then
 * the one the last taker committed, so the limit holds over any number of workers.
 */
export function takeJobSql(schema: string): string {
  const job = `"${schema}".job`;
  return `
    WITH at_limit AS (
      SELECT a.data->>'experiment_id' AS experiment_id
      FROM ${job} a
      WHERE a.name = $1 AND a.state = 'active' AND a.data ? 'max_in_flight'
      GROUP BY a.data->>'experiment_id', a.data->>'max_in_flight'
      HAVING count(*) >= (a.data->>'max_in_flight')::integer
    ), next AS (
      SELECT j.id
      FROM ${job} j
      WHERE j.name = $1
        AND j.state < 'active'
        AND j.start_after < now()
        AND COALESCE(j.data->'tags', '[]'::jsonb) <@ $2::jsonb
        AND NOT EXISTS (SELECT 1 FROM at_limit l WHERE l.experiment_id = j.data->>'experiment_id')
      ORDER BY j.priority DESC, j.created_on, j.id
      LIMIT 1
      FOR UPDATE OF j SKIP LOCKED
    )
    UPDATE ${job} j SET
      state = 'active',
      started_on = now(),
      retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
    FROM next
    WHERE j.name = $1 AND j.id = next.id
    RETURNING j.id, j.data, j.retry_count AS "retryCount"`;
}

/**
 * The active jobs, found by an index: `at_limit` reads them on every take, and pg-boss's own
 * indexes cover only waiting jobs (the table keeps every finished trial's job as well).
 */
export function activeJobsIndexDdl(schema: string): string {
  return `CREATE INDEX IF NOT EXISTS harnesseval_active_jobs ON "${schema}".job (name) WHERE state = 'active'`;
}
