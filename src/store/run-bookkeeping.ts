import { z } from 'zod';

/**
 * What a store keeps about the process running an experiment, beside the experiment itself: the
 * lease (one process runs an experiment at a time) and the process groups that process started
 * (so that a later run, or `runs cleanup`, can end what a killed run left behind).
 */

/** A HarnessEval process: with `started` (its start time, see util/process-identity.ts) a pid names one process. */
export const ProcessRefSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  started: z.string(),
});
export type ProcessRef = z.infer<typeof ProcessRefSchema>;

/** The process that holds an experiment's lease, and since when. */
export const LeaseHolderSchema = ProcessRefSchema.extend({ acquired_at: z.string() });
export type LeaseHolder = z.infer<typeof LeaseHolderSchema>;

/** A process group a run started (its leader's pid is the group id), and the run's process. */
export const ChildProcessSchema = z.object({
  pid: z.number().int().positive(),
  pgid: z.number().int().positive(),
  /** The leader's start time: a later process with the same pid is not this one. */
  started: z.string(),
  /** The process tag (HARNESSEVAL_PROCESS_TAG) it and its descendants carry. */
  tag: z.string(),
  owner: ProcessRefSchema,
});
export type ChildProcessRecord = z.infer<typeof ChildProcessSchema>;

/** A recorded child with the experiment whose run started it. */
export interface StoredChildProcess extends ChildProcessRecord {
  readonly experiment_id: string;
}

/** Whether two references name the same process. */
export function sameProcess(a: ProcessRef, b: ProcessRef): boolean {
  return a.pid === b.pid && a.host === b.host && a.started === b.started;
}
