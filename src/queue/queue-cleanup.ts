import type { ExperimentStatus } from '../core/experiment.ts';
import { experimentStatus } from './finish.ts';
import { DELETE_BATCH, deleteJobRows, queueClock } from './prune-jobs.ts';
import { type QueueStore, TRIAL_QUEUE } from './trial-job.ts';
import type { TrialQueue } from './trial-queue.ts';

/** Job rows, and how many experiments they belong to. */
export interface JobRowCount {
  readonly rows: number;
  readonly experiments: number;
}

/** What `runs cleanup --queue` did to the queue's job table. */
export interface QueueCleanup {
  /** Ended jobs of `completed` experiments, deleted. */
  readonly finished: JobRowCount;
  /** Jobs of experiments no longer in the store (`runs delete`), deleted. */
  readonly gone: JobRowCount;
  /** Jobs of `interrupted` (or `failed`) experiments, kept: `run --resume ID --queue` puts their cancelled and failed jobs back. */
  readonly interrupted: JobRowCount;
  /** Jobs of `running` experiments, and the jobs of finished ones still waiting or taken, kept. */
  readonly running: JobRowCount;
}

interface ScannedRow {
  readonly id: string;
  readonly ended: boolean;
  readonly experiment: string | null;
}

class Tally {
  rows = 0;
  readonly experiments = new Set<string>();
  add(experiment: string, rows: number): void {
    if (rows === 0) return;
    this.rows += rows;
    this.experiments.add(experiment);
  }
  get count(): JobRowCount {
    return { rows: this.rows, experiments: this.experiments.size };
  }
}

/**
 * Deletes what the queue no longer needs, for the job rows releases before this one left (they
 * deleted nothing) and those a finisher that died left: the ended jobs of `completed` experiments
 * and every job of experiments the store no longer has. One pass over the job table in key
 * order, a batch of rows at a time, each batch's deletes their own statements (prune-jobs.ts).
 *
 * Safe while workers and coordinators run: it reads the clock before any status and looks only at
 * rows created before it, so a row's experiment existed (and was `completed`, if so) when the row
 * was made; an experiment missing at the look was deleted, not yet to come. Rows made after the
 * clock (a resume, a new run) are not read.
 */
export async function cleanupQueue(
  store: Pick<QueueStore, 'listExperiments'>,
  queue: Pick<TrialQueue, 'db' | 'schema'>,
  options: { readonly batch?: number } = {},
): Promise<QueueCleanup> {
  const batch = Math.max(1, options.batch ?? DELETE_BATCH);
  const createdBefore = await queueClock(queue);
  const statuses = new Map<string, ExperimentStatus | undefined>();
  const tally = { finished: new Tally(), gone: new Tally(), interrupted: new Tally(), running: new Tally() };
  const scan = `SELECT id, state > 'active' AS ended, data->>'experiment_id' AS experiment
    FROM "${queue.schema}".job WHERE name = $1 AND id > $2::uuid AND created_on < $3 ORDER BY id LIMIT $4`;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await queue.db.withClient('read jobs', (client) =>
      client.query<ScannedRow>(scan, [TRIAL_QUEUE, after, createdBefore, batch]),
    );
    if (rows.length === 0) break;
    after = rows[rows.length - 1]?.id ?? after;
    const byExperiment = new Map<string, ScannedRow[]>();
    for (const row of rows) {
      const key = row.experiment ?? '';
      const jobs = byExperiment.get(key);
      if (jobs === undefined) byExperiment.set(key, [row]);
      else jobs.push(row);
    }
    for (const [experiment, jobs] of byExperiment) {
      if (!statuses.has(experiment))
        statuses.set(experiment, experiment === '' ? undefined : await experimentStatus(store, experiment));
      const status = statuses.get(experiment);
      if (status === undefined) {
        const ids = jobs.map((job) => job.id);
        tally.gone.add(experiment, await deleteJobRows(queue, ids, { createdBefore, endedOnly: false }));
      } else if (status === 'completed') {
        const ids = jobs.filter((job) => job.ended).map((job) => job.id);
        tally.finished.add(experiment, await deleteJobRows(queue, ids, { createdBefore, endedOnly: true }));
        tally.running.add(experiment, jobs.length - ids.length);
      } else if (status === 'running') tally.running.add(experiment, jobs.length);
      else tally.interrupted.add(experiment, jobs.length);
    }
    if (rows.length < batch) break;
  }
  return {
    finished: tally.finished.count,
    gone: tally.gone.count,
    interrupted: tally.interrupted.count,
    running: tally.running.count,
  };
}
