import { chunks } from '../util/chunks.ts';
import { experimentStatus } from './finish.ts';
import { eachPlanJobId, type QueueStore, TRIAL_QUEUE } from './trial-job.ts';
import type { TrialQueue } from './trial-queue.ts';

/**
 * Deleting the job rows the queue keeps. pg-boss's own maintenance is off (trial-queue.ts), so
 * without this every trial ever queued keeps a row in the job table.
 *
 * Deleted, not archived: pg-boss's archive is a second table that the same maintenance would have
 * to empty, so archiving moves the rows (a delete and an insert each) instead of removing them. A
 * job holds nothing the records do not: its trial's key, and its retries, which the record's
 * `attempts` counts by the time the job ends.
 */

/** Rows per statement: each batch is its own transaction and locks at most this many rows. */
export const DELETE_BATCH = 5000;

export interface DeleteJobRows {
  /**
   * Only rows created before this instant of the database's clock, taken before the caller looked
   * at the experiment: jobs enqueued after that look (a resume adding epochs) are never touched.
   */
  readonly createdBefore: Date;
  /** Only jobs that ended (completed, cancelled, failed); false: any state (an experiment that is gone). */
  readonly endedOnly: boolean;
  readonly batch?: number;
}

type QueueRows = Pick<TrialQueue, 'db' | 'schema'>;

/** The database's clock: what `createdBefore` is compared with (pg-boss sets `created_on` from it). */
export async function queueClock(queue: QueueRows): Promise<Date> {
  const { rows } = await queue.db.withClient('read the clock', (client) =>
    client.query<{ now: Date }>('SELECT now() AS now'),
  );
  return rows[0]?.now ?? new Date(0);
}

/**
 * Deletes the jobs among `ids` that match `options`, a batch at a time; returns how many. Rows
 * another process is deleting (a second finisher, `runs cleanup --queue`) are skipped, not waited
 * for (`SKIP LOCKED`): concurrent deleters share the work and can neither block nor deadlock.
 */
export async function deleteJobRows(
  queue: QueueRows,
  ids: Iterable<string>,
  options: DeleteJobRows,
): Promise<number> {
  const job = `"${queue.schema}".job`;
  const text = `WITH doomed AS (
      SELECT id FROM ${job}
      WHERE name = $1 AND id = ANY($2::uuid[]) AND created_on < $3 AND ($4 OR state > 'active')
      FOR UPDATE SKIP LOCKED)
    DELETE FROM ${job} j USING doomed d WHERE j.name = $1 AND j.id = d.id`;
  let deleted = 0;
  // Ids are taken from `ids` a batch at a time: a plan's ids are hashed as the batches go.
  for (const batch of chunks(ids, options.batch ?? DELETE_BATCH)) {
    const result = await queue.db.withClient('delete jobs', (client) =>
      client.query(text, [TRIAL_QUEUE, batch, options.createdBefore, !options.endedOnly]),
    );
    deleted += result.rowCount ?? 0;
  }
  return deleted;
}

/**
 * Deletes the ended jobs of a `completed` experiment (every trial stored); returns how many. Any
 * process may call it at any time, any number of times: it deletes nothing of an experiment in
 * another state, and never a job that waits, is due for a retry or is taken, so "no open job"
 * still means that every job ended (a follower's and a completer's test), and a job a zombie
 * completes or fails late is simply not found. Jobs of `interrupted` experiments stay: a resume
 * puts their cancelled and failed jobs back with their retry counts.
 */
export async function pruneFinishedJobs(
  store: Pick<QueueStore, 'listExperiments'>,
  queue: QueueRows,
  experiment: Parameters<typeof eachPlanJobId>[0],
): Promise<number> {
  // The clock first, then the status: a job created after the clock was read belongs to a resume
  // that made the experiment `running` again after this look, and is not deleted.
  const createdBefore = await queueClock(queue);
  if ((await experimentStatus(store, experiment.id)) !== 'completed') return 0;
  return deleteJobRows(queue, eachPlanJobId(experiment), { createdBefore, endedOnly: true });
}

/**
 * Deletes every job of an experiment, in any state (`runs delete`); returns how many. A worker
 * holding one of them sees it gone within a second and stops its trial (worker.ts).
 */
export async function deleteExperimentJobs(
  queue: QueueRows,
  experiment: Parameters<typeof eachPlanJobId>[0],
): Promise<number> {
  const createdBefore = await queueClock(queue);
  return deleteJobRows(queue, eachPlanJobId(experiment), { createdBefore, endedOnly: false });
}
