import { sqlLiteral } from './take-job.ts';

/**
 * Completing trial jobs in batches, and learning in the same round trip which experiments have no
 * job left waiting or running: only those can have every trial stored, so a worker reads the
 * store's count of records only then (not after every trial).
 *
 * Two workers completing an experiment's last two jobs at once would each still see the other's
 * job active (neither has committed), and neither would finish the experiment. So after its
 * update a completer takes a transaction lock per experiment it completed (in order: no deadlock)
 * and looks for open jobs in a new snapshot: of any two completers, the later to get the lock sees
 * the earlier one's commit, so the last one sees every job done.
 */
export function completeJobsFunctionDdl(schema: string): string {
  const job = `"${schema}".job`;
  return `
    CREATE OR REPLACE FUNCTION "${schema}".harnesseval_complete_jobs_v1(queue_name text, job_ids uuid[])
    RETURNS TABLE (drained_experiment text)
    LANGUAGE plpgsql VOLATILE AS $complete$
    DECLARE
      experiments text[];
      experiment text;
    BEGIN
      WITH done AS (
        -- As pg-boss's complete: no output, so an earlier attempt's failure message is not reported.
        UPDATE ${job} j SET completed_on = now(), state = 'completed', output = NULL
        WHERE j.name = queue_name AND j.id = ANY(job_ids) AND j.state = 'active'
        RETURNING j.data->>'experiment_id' AS experiment_id
      )
      SELECT array_agg(DISTINCT d.experiment_id ORDER BY d.experiment_id) INTO experiments FROM done d;
      IF experiments IS NULL THEN
        RETURN;
      END IF;
      FOREACH experiment IN ARRAY experiments LOOP
        PERFORM pg_advisory_xact_lock(hashtext(${sqlLiteral(`${schema}.drained.`)} || experiment));
      END LOOP;
      RETURN QUERY
      SELECT e FROM unnest(experiments) e
      WHERE NOT EXISTS (
        SELECT 1 FROM ${job} o
        WHERE o.name = queue_name AND o.state < 'completed' AND o.data->>'experiment_id' = e);
    END
    $complete$`;
}

/** The open jobs (waiting or running) of an experiment, by an index: the check above runs per batch. */
export function openJobsIndexDdl(schema: string): string {
  return `CREATE INDEX IF NOT EXISTS harnesseval_open_jobs ON "${schema}".job (name, (data->>'experiment_id')) WHERE state < 'completed'`;
}
