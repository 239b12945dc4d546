import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import { discordantPairs } from '../stats/mcnemar.ts';
import type { FlippedTask } from './types.ts';

/**
 * Task id -> share of its finished (non-pending) trials that passed. For the list of flipped
 * tasks only, a task "passes" when this is at least 0.5 — the majority of its epochs passed (with
 * an even number of epochs a tie counts as a pass); with one epoch it is the trial's outcome.
 * No test uses these majority verdicts: with epochs the test is on the pass rates themselves.
 */
export function taskPassRates(experiment: Experiment): Map<string, number> {
  const counts = new Map<string, { passed: number; finished: number }>();
  for (const record of experiment.records) {
    if (record.outcome === 'pending') continue;
    const c = counts.get(record.task_id) ?? { passed: 0, finished: 0 };
    c.finished++;
    if (record.outcome === 'pass') c.passed++;
    counts.set(record.task_id, c);
  }
  return new Map([...counts].map(([task, c]) => [task, c.passed / c.finished]));
}

export const PASS_MAJORITY = 0.5;

export function taskVerdicts(rates: ReadonlyMap<string, number>): Map<string, boolean> {
  return new Map([...rates].map(([task, rate]) => [task, rate >= PASS_MAJORITY]));
}

const MAX_EXPLANATION = 200;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_EXPLANATION ? `${oneLine.slice(0, MAX_EXPLANATION - 1)}…` : oneLine;
}

/** Why a trial failed: its error, else its first failed evaluation, else its first failed criterion. */
export function failureExplanation(record: RunRecord): string {
  if (record.error) return clip(`error: ${record.error}`);
  const evaluation = record.evaluations.find((e) => !e.passed);
  if (evaluation) return clip(`${evaluation.evaluator}: ${evaluation.error ?? evaluation.explanation}`);
  const criterion = record.criteria.find((c) => c.status === 'failed' || c.status === 'error');
  if (criterion) return clip(`${criterion.id}: ${criterion.explanation || criterion.status}`);
  return record.outcome === 'error' ? 'error' : 'failed';
}

/** Task id -> its first failed or errored record: one pass, not a search of every record per flipped task. */
function firstFailures(experiment: Experiment): Map<string, RunRecord> {
  const failures = new Map<string, RunRecord>();
  for (const r of experiment.records)
    if ((r.outcome === 'fail' || r.outcome === 'error') && !failures.has(r.task_id))
      failures.set(r.task_id, r);
  return failures;
}

/** The tasks whose verdict flipped from A to B, each with the failing side's explanation and a flaky mark. */
export function flippedTasks(
  a: Experiment,
  b: Experiment,
  flaky: ReadonlySet<string> = new Set(),
): { regressions: FlippedTask[]; improvements: FlippedTask[]; counts: ReturnType<typeof discordantPairs> } {
  const ratesA = taskPassRates(a);
  const ratesB = taskPassRates(b);
  const counts = discordantPairs(taskVerdicts(ratesA), taskVerdicts(ratesB));
  const flipped = (task: string, failures: ReadonlyMap<string, RunRecord>): FlippedTask => {
    const failed = failures.get(task);
    return {
      task_id: task,
      baseline_pass_rate: ratesA.get(task) ?? 0,
      pass_rate: ratesB.get(task) ?? 0,
      explanation: failed ? failureExplanation(failed) : '',
      flaky: flaky.has(task),
    };
  };
  const failuresA = counts.improvements.length > 0 ? firstFailures(a) : new Map<string, RunRecord>();
  const failuresB = counts.regressions.length > 0 ? firstFailures(b) : new Map<string, RunRecord>();
  return {
    regressions: counts.regressions.map((t) => flipped(t, failuresB)),
    improvements: counts.improvements.map((t) => flipped(t, failuresA)),
    counts,
  };
}
