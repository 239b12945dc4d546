/**
 * A worker's one statement to the queue: complete the jobs whose records are committed and take
 * jobs for its free slots and its prefetch, in one round trip (both were a statement each, and
 * each statement costs the worker and the server more CPU than the SQL itself).
 *
 * The completions go first, in the same transaction: a take after them sees their jobs done, so
 * an experiment with `max_in_flight` gets its freed room back in the same round trip. The
 * completion's per-experiment locks (complete-jobs.ts) are then held until the take's end, a
 * fraction of a millisecond; both lock in one order (experiments, then the takers' lock), so two
 * exchanges cannot deadlock. Rows are either a taken job (`job_id` set) or an experiment the
 * completions left with no job waiting or running (`drained_experiment` set).
 */
export function exchangeJobsFunctionDdl(schema: string): string {
  return `
    CREATE OR REPLACE FUNCTION "${schema}".harnesseval_exchange_jobs_v1(queue_name text, done uuid[], worker_tags jsonb, wanted integer)
    RETURNS TABLE (job_id uuid, job_data jsonb, job_retry_count integer, drained_experiment text)
    LANGUAGE plpgsql VOLATILE AS $exchange$
    BEGIN
      IF cardinality(done) > 0 THEN
        RETURN QUERY
        SELECT NULL::uuid, NULL::jsonb, NULL::integer, c.drained_experiment
        FROM "${schema}".harnesseval_complete_jobs_v1(queue_name, done) c;
      END IF;
      IF wanted > 0 THEN
        RETURN QUERY
        SELECT t.job_id, t.job_data, t.job_retry_count, NULL::text
        FROM "${schema}".harnesseval_take_jobs_v1(queue_name, worker_tags, wanted) t;
      END IF;
    END
    $exchange$`;
}

/** Completes $2 (uuids) of queue $1 and takes up to $4 jobs for a worker with tags $3 (a JSON array). */
export function exchangeJobsSql(schema: string): string {
  return `SELECT job_id AS id, job_data AS data, job_retry_count AS "retryCount", drained_experiment AS "drained"
    FROM "${schema}".harnesseval_exchange_jobs_v1($1, $2::uuid[], $3::jsonb, $4)`;
}
