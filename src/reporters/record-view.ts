import type { Experiment } from '../core/experiment.ts';
import { type OverallScore, overallScore, type ScoredExperiment } from '../core/overall-score.ts';
import type { Outcome, RunRecord } from '../core/run-record.ts';
import { firstFailure } from '../util/first-failure.ts';

/**
 * What every reporter shows of a trial, computed once so the formats agree: the label, the
 * score, the time, the cost and why it failed.
 */

/** Show epochs when the run has more than one (or a record says so, e.g. a resumed run). */
export function showsEpochs(experiment: Experiment): boolean {
  return experiment.settings.epochs > 1 || experiment.records.some((r) => r.epoch > 0);
}

/** `task_id` or `task_id#epoch` (epochs as stored, starting at 0). */
export function trialName(record: Pick<RunRecord, 'task_id' | 'epoch'>, withEpoch: boolean): string {
  return withEpoch ? `${record.task_id}#${record.epoch}` : record.task_id;
}

/** The trial's score: the overall score when scoring produced one, else the mean evaluator score. */
export function trialScore(record: RunRecord): number | null {
  const overall = record.scores['overall'];
  if (overall !== undefined) return overall;
  if (record.evaluations.length === 0) return null;
  return record.evaluations.reduce((sum, e) => sum + e.score, 0) / record.evaluations.length;
}

/**
 * Agent latency: seconds the adapter measured around the agent call (null when it measured none).
 * Not the trial's duration (`duration_seconds`), which also holds the workspace and the checks.
 */
export function agentLatency(record: RunRecord): number | null {
  return record.output.latency > 0 ? record.output.latency : null;
}

/**
 * The experiment's overall score (the one definition in `core/overall-score.ts`) as text, with
 * the counts it rests on when any trial is not decided: `0.867 (1 decided, 5 pending)`.
 */
export function overallScoreText(experiment: ScoredExperiment, digits = 3): string {
  const tasks = experiment.suite.tasks.length > 0 ? experiment.suite.tasks : taskIds(experiment);
  return overallScoreLabel(overallScore(experiment.records, tasks), digits);
}

/** `overallScoreText` of a score already computed (a streamed report folds it). */
export function overallScoreLabel(score: OverallScore, digits = 3): string {
  const value = score.value === null ? 'n/a' : score.value.toFixed(digits);
  const notes: string[] = [];
  if (score.pending > 0) {
    const range = score.possible_range;
    notes.push(
      `${score.decided} decided, ${score.pending} pending${range === null ? '' : `; ${range[0].toFixed(digits)}–${range[1].toFixed(digits)} once graded`}`,
    );
  }
  if (score.environment_errors > 0) notes.push(`${score.environment_errors} environment errors left out`);
  if (score.infra_errors > 0) notes.push(`${score.infra_errors} infra errors left out`);
  return notes.length === 0 ? value : `${value} (${notes.join('; ')})`;
}

function taskIds(experiment: ScoredExperiment): { id: string; weight: number }[] {
  return [...new Set(experiment.records.map((r) => r.task_id))].map((id) => ({ id, weight: 1 }));
}

export function trialCost(record: RunRecord): number | null {
  return record.cost_usd ?? record.output.usage.cost_usd;
}

/** Model calls of the trial that spent tokens without a cost or a price: its cost is partial. */
export function unpricedCalls(record: RunRecord): number {
  return record.output.usage.unpriced_calls ?? 0;
}

/** A trial's cost as text: `$0.0297`, `$0.0297 partial` when calls are unpriced, `-` when unknown. */
export function costLabel(record: RunRecord, format: (usd: number) => string): string {
  const cost = trialCost(record);
  if (cost === null) return '-';
  return unpricedCalls(record) > 0 ? `${format(cost)} partial` : format(cost);
}

export function trialError(record: RunRecord): string | undefined {
  return record.error ?? record.output.error;
}

/** Test files the harness had changed, put back before checking (`metadata.restored_files`). */
export function restoredFiles(record: RunRecord): string[] {
  const files = record.metadata['restored_files'];
  return Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string') : [];
}

/**
 * Why the trial did not pass, in one sentence (undefined when it passed), led by the test files
 * the harness had changed, whatever the outcome.
 */
export function trialExplanation(record: RunRecord): string | undefined {
  const restored = restoredFiles(record);
  const why = outcomeExplanation(record);
  if (restored.length === 0) return why;
  const note = `the harness changed ${restored.join(', ')} (restored before checking)`;
  return why === undefined ? note : `${note}; ${why}`;
}

function outcomeExplanation(record: RunRecord): string | undefined {
  switch (record.outcome) {
    case 'pass':
      return undefined;
    case 'error':
      return trialError(record) ?? 'the trial errored without a message';
    case 'pending': {
      const waiting = record.criteria.filter((c) => c.status === 'pending').map((c) => c.id);
      return waiting.length > 0 ? `awaiting grades for ${waiting.join(', ')}` : 'awaiting grades';
    }
    case 'fail': {
      const evaluation = record.evaluations.find((e) => !e.passed);
      if (evaluation !== undefined) {
        const tail = evaluation.details['output_tail'];
        const why =
          failedAssertion(typeof tail === 'string' ? tail : undefined) ??
          evaluation.error ??
          evaluation.explanation;
        return `${evaluation.negated ? 'not ' : ''}${evaluation.evaluator}: ${why}`;
      }
      const criterion = record.criteria.find((c) => c.status === 'failed' || c.status === 'error');
      if (criterion !== undefined)
        return `${criterion.id}: ${failedAssertion(criterion.output_tail) ?? (criterion.explanation || criterion.status)}`;
      return 'failed without a failing evaluation (overall score below the pass threshold)';
    }
    default:
      return assertNever(record.outcome);
  }
}

/** A test command's first failing assertion (`not ok 1 - name: message`) rather than its exit status. */
function failedAssertion(outputTail: string | undefined): string | undefined {
  return outputTail === undefined ? undefined : firstFailure(outputTail);
}

/** Every failing evaluation and criterion, one per line (for JUnit bodies and details). */
export function trialFailureDetails(record: RunRecord): string {
  const lines = [
    ...record.evaluations
      .filter((e) => !e.passed)
      .map(
        (e) =>
          `${e.negated ? 'not ' : ''}${e.evaluator} (score ${e.score.toFixed(2)}): ${e.error ?? e.explanation}`,
      ),
    ...record.criteria
      .filter((c) => c.status === 'failed' || c.status === 'error')
      .map((c) => `${c.id} (${c.status}): ${c.explanation}`),
  ];
  const error = trialError(record);
  if (error !== undefined) lines.push(`error: ${error}`);
  return lines.join('\n');
}

export interface OutcomeCounts {
  readonly pass: number;
  readonly fail: number;
  readonly error: number;
  readonly pending: number;
  readonly total: number;
  /** Trials the suite asked for that have no record (an interrupted run). */
  readonly missing: number;
}

export function countOutcomes(experiment: Experiment): OutcomeCounts {
  const counts: Record<Outcome, number> = { pass: 0, fail: 0, error: 0, pending: 0 };
  for (const record of experiment.records) counts[record.outcome] += 1;
  const expected = experiment.suite.tasks.length * experiment.settings.epochs;
  const total = experiment.records.length;
  return { ...counts, total, missing: Math.max(0, expected - total) };
}

export type Verdict = 'PASS' | 'FAIL' | 'ERROR' | 'PENDING' | 'INTERRUPTED' | 'RUNNING';

/**
 * The one-word verdict: threshold violations fail the run whatever else happened; then the
 * experiment's own outcome (suite scoring), then an unfinished status.
 */
export function experimentVerdict(experiment: Experiment): Verdict {
  if (experiment.violations.length > 0) return 'FAIL';
  if (experiment.status === 'failed') return 'ERROR';
  if (experiment.status === 'interrupted') return 'INTERRUPTED';
  if (experiment.status === 'running') return 'RUNNING';
  switch (experiment.outcome) {
    case 'fail':
      return 'FAIL';
    case 'error':
      return 'ERROR';
    case 'pending':
      return 'PENDING';
    default:
      return 'PASS';
  }
}

/** "20/25 passed, 3 failed, 2 errors" (zero counts other than passed are left out). */
export function outcomeSummary(counts: OutcomeCounts): string {
  const parts = [`${counts.pass}/${counts.total} passed`];
  if (counts.fail > 0) parts.push(`${counts.fail} failed`);
  if (counts.error > 0) parts.push(`${counts.error} ${counts.error === 1 ? 'error' : 'errors'}`);
  if (counts.pending > 0) parts.push(`${counts.pending} pending`);
  if (counts.missing > 0) parts.push(`${counts.missing} not run`);
  return parts.join(', ');
}

export function assertNever(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}
