import { type FlakinessRun, type FlakyTask, flakyTasks } from '../metrics/flaky.ts';
import type { ReportOptions } from './types.ts';

/**
 * The flaky tasks a report marks: those the caller found across stored runs of the same harness
 * version (`options.flaky`), else those whose verdict differs between this experiment's epochs.
 */
export function reportFlaky(experiment: FlakinessRun, options: ReportOptions = {}): readonly FlakyTask[] {
  return options.flaky ?? flakyTasks([experiment]);
}

/** "t3: 2 of 5 attempts passed, flip rate 0.60 (2 runs)". */
export function flakyDescription(task: FlakyTask): string {
  const runs = task.runs > 1 ? ` (${task.runs} runs)` : '';
  return `${task.task_id}: ${task.passes} of ${task.trials} attempts passed, flip rate ${task.flip_rate.toFixed(2)}${runs}`;
}

export const FLAKY_TITLE = 'Flaky tasks (the verdict differs between attempts of this version)';
