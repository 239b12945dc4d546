export { type Enqueued, type EnqueueOptions, enqueueExperiment } from './enqueue.ts';
export { finishIfComplete } from './finish.ts';
export {
  cancelExperiment,
  type Followed,
  type FollowOptions,
  followExperiment,
  type QueueProgress,
} from './follow.ts';
export { loadQueuedSuite, type SuiteLoader } from './queued-experiment.ts';
export { asQueueStore, type QueuePlan, type QueueStore, TRIAL_QUEUE, trialJobId } from './trial-job.ts';
export { type JobState, TrialQueue } from './trial-queue.ts';
export { runWorker, type WorkerEvent, type WorkerOptions } from './worker.ts';
