import { relative } from 'node:path';
import { HarnessEvalError } from '../core/errors.ts';
import type { RunSettings } from '../core/experiment.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { JudgeConfig } from '../core/judge.ts';
import type { Suite } from '../core/suite.ts';
import { planExperiment } from '../runner/lifecycle.ts';
import { planTrials } from '../runner/plan.ts';
import { checkCodebases } from '../runner/workspace.ts';
import type { ExperimentDocument } from '../store/documents.ts';
import { experimentStatus } from './finish.ts';
import { type QueuePlan, QueuePlanSchema, type QueueStore, trialJobId } from './trial-job.ts';
import type { TrialQueue } from './trial-queue.ts';

export interface EnqueueOptions {
  readonly store: QueueStore;
  readonly queue: TrialQueue;
  readonly suite: Suite;
  readonly harness: HarnessConfig;
  readonly harnessBaseDir: string;
  /** The checkout's root (where `run` was started): the queue plan's paths are relative to it. */
  readonly cwd: string;
  readonly settings?: Partial<RunSettings>;
  /** Re-enqueue the missing trials of this stored experiment (a crashed or cancelled coordinator). */
  readonly resume?: string;
  readonly name?: string;
  /** Seconds a job may stay taken before another worker gets it (default: from timeout and retries). */
  readonly jobExpirySeconds?: number;
  /** Higher first among the experiments waiting for workers (default 0; a resume keeps the stored one). */
  readonly priority?: number;
  /** At most this many trials of the experiment run at once over all workers. */
  readonly maxInFlight?: number;
  /** Only workers with all these tags (`worker --tags`) take its jobs. */
  readonly tags?: readonly string[];
  /** The judge every worker grades rubric criteria with (`--judge`; else the suite's). */
  readonly judge?: JudgeConfig;
  /** Every worker keeps each trial's workspace (`--keep-workspaces`). */
  readonly keepWorkspaces?: boolean;
}

export interface Enqueued {
  readonly experiment: ExperimentDocument;
  /** Trials whose jobs are now in the queue (missing ones; a resume skips the stored ones). */
  readonly queued: number;
  /** Trials already stored. */
  readonly stored: number;
}

/**
 * A job must outlive its trial: every attempt at the timeout, plus the checks. A shorter expiry
 * would hand a slow but live trial to a second worker (harmless to the records, but wasted work).
 */
function defaultExpiry(settings: RunSettings): number {
  return Math.ceil(settings.timeout_seconds * (settings.retries + 1) * 2 + 60);
}

/**
 * Plans the experiment (or continues a stored one), stores it with its queue plan, and enqueues one
 * job per missing trial. Enqueuing is idempotent: a trial's job id is fixed, so a second enqueue
 * adds nothing; cancelled or failed jobs of a resumed experiment go back in the queue.
 */
export async function enqueueExperiment(options: EnqueueOptions): Promise<Enqueued> {
  const file = options.suite.source?.file;
  if (file === undefined)
    throw new HarnessEvalError('usage', '--queue needs a suite loaded from a file that workers can load too');
  const plan = await planExperiment({
    suite: options.suite,
    harness: options.harness,
    settings: options.settings,
    store: options.store,
    resume: options.resume,
    name: options.name,
  });
  await checkCodebases(plan.tasks);
  // A resumed experiment keeps what it was queued with, unless the resume says otherwise.
  const before = plan.resumed ? QueuePlanSchema.safeParse(plan.experiment.metadata['queue']) : undefined;
  const queuedBefore = before?.success === true ? before.data : undefined;
  const maxInFlight = options.maxInFlight ?? queuedBefore?.max_in_flight;
  const judge = options.judge ?? queuedBefore?.judge;
  const queuePlan: QueuePlan = {
    suite_file: relative(options.cwd, file),
    harness_dir: relative(options.cwd, options.harnessBaseDir),
    job_expiry_seconds:
      options.jobExpirySeconds ?? queuedBefore?.job_expiry_seconds ?? defaultExpiry(plan.settings),
    priority: options.priority ?? queuedBefore?.priority ?? 0,
    ...(maxInFlight === undefined ? {} : { max_in_flight: maxInFlight }),
    tags: [...(options.tags ?? queuedBefore?.tags ?? [])],
    ...(judge === undefined ? {} : { judge }),
    keep_workspaces: options.keepWorkspaces ?? queuedBefore?.keep_workspaces ?? false,
  };
  const experiment = {
    ...plan.experiment,
    metadata: { ...plan.experiment.metadata, queue: queuePlan },
  };
  if (plan.resumed)
    await options.store.updateExperiment(experiment.id, { status: 'running', metadata: experiment.metadata });
  else await options.store.createExperiment(experiment);
  const runs = (taskIndex: number, epoch: number) => plan.stored.runs(taskIndex, epoch);
  const trials = planTrials(plan.tasks, plan.settings.epochs, runs);
  // The jobs are made as they go in, and their ids made again when needed: a plan of a million
  // trials held as a list of jobs cost the coordinator ~300 MB.
  function* jobs() {
    for (const trial of trials)
      yield {
        id: trialJobId(experiment.id, trial.task.id, trial.epoch),
        data: {
          experiment_id: experiment.id,
          task_id: trial.task.id,
          epoch: trial.epoch,
          ...(queuePlan.tags.length === 0 ? {} : { tags: queuePlan.tags }),
          ...(queuePlan.max_in_flight === undefined ? {} : { max_in_flight: queuePlan.max_in_flight }),
        },
        priority: queuePlan.priority,
      };
  }
  function* ids() {
    for (const trial of trials) yield trialJobId(experiment.id, trial.task.id, trial.epoch);
  }
  const queued = await options.queue.enqueue(jobs(), queuePlan.job_expiry_seconds);
  if (plan.resumed) await options.queue.requeue(ids());
  // A cancel that came meanwhile (`runs cancel` elsewhere: it marks the experiment first, then
  // cancels its jobs) found only the jobs already in; the ones added after it are cancelled here,
  // or workers would run trials of a stopped experiment.
  if ((await experimentStatus(options.store, experiment.id)) !== 'running') await options.queue.cancel(ids());
  const { records: _records, ...document } = experiment;
  return { experiment: document, queued, stored: plan.stored.counts.kept };
}
