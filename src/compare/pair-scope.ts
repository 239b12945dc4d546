import type { Experiment } from '../core/experiment.ts';
import { type FlakinessRun, type FlakyTask, flakyTasks } from '../metrics/flaky.ts';

/**
 * The tasks one candidate's comparison with the baseline is about. Everything a comparison
 * decides — direction, delta, interval, p and the gate — comes from the tasks both ran; tasks only
 * one side ran are listed, never mixed in.
 */
export interface PairScope {
  readonly baseline: Experiment;
  readonly candidate: Experiment;
  /** Both experiments restricted to the shared tasks (less the excluded ones). */
  readonly sharedBaseline: Experiment;
  readonly sharedCandidate: Experiment;
  readonly shared: readonly string[];
  readonly onlyInBaseline: readonly string[];
  readonly onlyInCandidate: readonly string[];
  readonly totalTasks: number;
  readonly flaky: readonly FlakyTask[];
  readonly excluded: readonly string[];
}

function tasksOf(experiment: Experiment): string[] {
  return [...new Set(experiment.records.map((r) => r.task_id))];
}

/** The experiment with only the records (and suite tasks) of `tasks`. */
export function restrictTo(experiment: Experiment, tasks: ReadonlySet<string>): Experiment {
  // Every task kept (two runs of one suite): the experiment itself, not a copy of 10,000 records.
  if (
    experiment.records.every((r) => tasks.has(r.task_id)) &&
    experiment.suite.tasks.every((t) => tasks.has(t.id))
  )
    return experiment;
  return {
    ...experiment,
    records: experiment.records.filter((r) => tasks.has(r.task_id)),
    suite: { ...experiment.suite, tasks: experiment.suite.tasks.filter((t) => tasks.has(t.id)) },
  };
}

/**
 * Flaky tasks of the pair: tasks whose verdict flips among the attempts of A's version or of B's
 * version (their epochs, plus `runs` — other stored runs of the same versions — when given).
 */
function pairFlakiness(
  baseline: Experiment,
  candidate: Experiment,
  runs: {
    readonly baseline?: readonly FlakinessRun[] | undefined;
    readonly candidate?: readonly FlakinessRun[] | undefined;
  },
): FlakyTask[] {
  const withSelf = (self: Experiment, more: readonly FlakinessRun[] = []) => [
    self,
    ...more.filter((r) => r.id !== self.id),
  ];
  const found = new Map<string, FlakyTask>();
  for (const task of [
    ...flakyTasks(withSelf(baseline, runs.baseline)),
    ...flakyTasks(withSelf(candidate, runs.candidate)),
  ]) {
    const seen = found.get(task.task_id);
    if (seen === undefined || task.flip_rate > seen.flip_rate) found.set(task.task_id, task);
  }
  return [...found.values()];
}

export function pairScope(
  baseline: Experiment,
  candidate: Experiment,
  options: {
    readonly excludeFlaky?: boolean | undefined;
    readonly runs?: {
      readonly baseline?: readonly FlakinessRun[] | undefined;
      readonly candidate?: readonly FlakinessRun[] | undefined;
    };
  } = {},
): PairScope {
  const inBaseline = tasksOf(baseline);
  const inCandidate = new Set(tasksOf(candidate));
  const flaky = pairFlakiness(baseline, candidate, options.runs ?? {});
  const flakyIds = new Set(flaky.map((t) => t.task_id));
  const both = inBaseline.filter((t) => inCandidate.has(t));
  const excluded = options.excludeFlaky ? both.filter((t) => flakyIds.has(t)) : [];
  const excludedSet = new Set(excluded);
  const shared = both.filter((t) => !excludedSet.has(t));
  const sharedSet = new Set(shared);
  const baselineSet = new Set(inBaseline);
  return {
    baseline,
    candidate,
    sharedBaseline: restrictTo(baseline, sharedSet),
    sharedCandidate: restrictTo(candidate, sharedSet),
    shared,
    onlyInBaseline: inBaseline.filter((t) => !inCandidate.has(t)),
    onlyInCandidate: [...inCandidate].filter((t) => !baselineSet.has(t)),
    totalTasks: new Set([...inBaseline, ...inCandidate]).size,
    flaky,
    excluded,
  };
}
