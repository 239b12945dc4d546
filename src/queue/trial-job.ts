import { createHash } from 'node:crypto';
import { z } from 'zod';
import { HarnessEvalError } from '../core/errors.ts';
import { JudgeConfigSchema } from '../core/judge.ts';
import type { PostgresStore } from '../store/postgres-store.ts';
import type { ExperimentStore } from '../store/types.ts';
import { WORKER_TAG_PATTERN } from './worker-tag.ts';

/** The pg-boss queue every trial job goes to. */
export const TRIAL_QUEUE = 'harnesseval-trials';

/** One job: one trial of a stored experiment. Everything else a worker needs is in the experiment. */
export const TrialJobSchema = z.object({
  experiment_id: z.string().min(1),
  task_id: z.string().min(1),
  epoch: z.number().int().nonnegative(),
  /**
   * Read by the queue's own fetch (trial-queue.ts), not by the worker: a worker takes the job only
   * when it has every tag, and only while fewer than `max_in_flight` of the experiment's jobs run.
   */
  tags: z.array(z.string().min(1)).optional(),
  max_in_flight: z.number().int().positive().optional(),
});
export type TrialJob = z.infer<typeof TrialJobSchema>;

/** A worker tag (`worker --tags gpu`) and a job's required tag (`run --queue … --tags gpu`). */
export const WorkerTagSchema = z.string().regex(WORKER_TAG_PATTERN, 'letters, digits, _ . : - only');

/**
 * What `run --queue` stores in the experiment's `metadata.queue`: where workers find the suite and
 * the harness's folder in their own checkout (paths relative to the checkout's root, the folder
 * `run` was started in), how long a job may stay taken before another worker gets it, how the
 * experiment shares the workers with others (priority, max in flight, required tags), and the
 * run options every worker applies as the local runner would (`--judge`, `--keep-workspaces`).
 */
export const QueuePlanSchema = z.object({
  suite_file: z.string().min(1),
  harness_dir: z.string(),
  job_expiry_seconds: z.number().int().positive(),
  /** Higher first: a worker takes this experiment's jobs before those of lower priority. */
  priority: z.number().int().default(0),
  /** At most this many of the experiment's trials run at once, over all workers. */
  max_in_flight: z.number().int().positive().optional(),
  /** Only workers with every one of these tags take the experiment's jobs. */
  tags: z.array(WorkerTagSchema).default([]),
  /** `--judge`: grades rubric criteria instead of the suite's `judge:`. */
  judge: JudgeConfigSchema.optional(),
  /** `--keep-workspaces`: each worker keeps the trial's workspace on its own machine. */
  keep_workspaces: z.boolean().default(false),
});
export type QueuePlan = z.infer<typeof QueuePlanSchema>;

export function queuePlanOf(experiment: { id: string; metadata: Record<string, unknown> }): QueuePlan {
  const parsed = QueuePlanSchema.safeParse(experiment.metadata['queue']);
  if (!parsed.success) {
    throw new HarnessEvalError(
      'invalid_input',
      `experiment ${experiment.id} was not queued (run it with run --queue); it has no queue plan`,
      { data: { experimentId: experiment.id } },
    );
  }
  return parsed.data;
}

/**
 * The job's id, the same for every enqueue of the trial: pg-boss inserts with ON CONFLICT DO
 * NOTHING, so enqueuing an experiment twice (a resumed coordinator) adds no second job.
 */
export function trialJobId(experimentId: string, taskId: string, epoch: number): string {
  const hex = createHash('sha256')
    .update(JSON.stringify([experimentId, taskId, epoch]))
    .digest('hex');
  // Shaped as a version-5-style UUID (pg-boss ids are uuid).
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

type PlannedJobs = {
  id: string;
  suite: { tasks: readonly { id: string }[] };
  settings: { epochs: number };
};

/** Every job id of an experiment's plan. */
export function planJobIds(experiment: PlannedJobs): string[] {
  return [...eachPlanJobId(experiment)];
}

/**
 * The same ids one at a time, in the same order: a caller that uses them a batch at a time does
 * not hold the event loop for the whole plan (hashing 100,000 ids takes ~0.2 s).
 */
export function* eachPlanJobId(experiment: PlannedJobs): Generator<string> {
  for (const task of experiment.suite.tasks)
    for (let epoch = 0; epoch < experiment.settings.epochs; epoch++)
      yield trialJobId(experiment.id, task.id, epoch);
}

/** The store a queue needs: PostgreSQL's, with its exactly-once commit and locked update. */
export type QueueStore = ExperimentStore &
  Pick<
    PostgresStore,
    | 'appendRecordOnce'
    | 'countAttempts'
    | 'updateExperimentLocked'
    | 'getExperimentDocument'
    | 'outcomeCounts'
  >;

export function asQueueStore(store: ExperimentStore): QueueStore {
  const candidate = store as Partial<QueueStore>;
  if (typeof candidate.appendRecordOnce !== 'function' || typeof candidate.outcomeCounts !== 'function')
    throw new HarnessEvalError('usage', 'the queue needs a PostgreSQL store (a postgres:// URL)');
  return store as QueueStore;
}
