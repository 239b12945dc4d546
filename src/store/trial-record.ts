import { z } from 'zod';
import { ErrorKindSchema, emptyTrace, UsageSchema } from '../core/agent-output.ts';
import { HarnessEvalError } from '../core/errors.ts';
import { CriterionResultSchema, EvaluationResultSchema } from '../core/evaluation.ts';
import { ProcessMetricsSchema, type RunRecord, RunRecordSchema } from '../core/run-record.ts';
import { compileExactCheck, type ExactCheck } from '../util/exact-check.ts';

/**
 * A trial record: a run record cut to what metrics, overall scores and comparisons read, so that
 * `compare` of two 10,000-trial experiments reads a few hundred bytes per trial instead of whole
 * documents with outputs and traces. It is a `RunRecord` (every metric takes one), with:
 *
 * - kept: ids, task, epoch, attempts, timestamp, duration, cost, outcome, error kinds, the
 *   adapter's latency and usage, process metrics, scores, each evaluation's evaluator, score,
 *   passed and negated, each criterion's id, verification, status and score; and, of a failed or
 *   errored trial only, its error and the explanations (and errors) of its failed evaluations and
 *   failed or errored criteria — what a comparison says of a task that flipped;
 * - blank: the harness (name and version ''), output (null), tool calls, trace, input, expected,
 *   details, grades, by_role, workspace, metadata.
 *
 * Stores keep these fields in each record's `summary` column (a superset of the viewer's summary,
 * record-summary.ts) when the record is written, and rebuild the record from them on read.
 */

/** The version of the trial fields in a stored summary: a summary without it is read from its document. */
export const TRIAL_FIELDS_VERSION = 1;

const fields = RunRecordSchema.shape;
const evaluation = EvaluationResultSchema.shape;
const criterion = CriterionResultSchema.shape;

/**
 * A stored summary with the trial fields, key for key in the order `trialSummary` writes them
 * (the viewer's fields first: record-summary.ts picks them from this schema and reads the same
 * text). Absent `attempts` is 1 and absent `metrics` the defaults; texts are present only where a
 * failure is explained by them.
 */
export const TrialSummarySchema = z.object({
  run_id: fields.run_id,
  task_id: fields.task_id,
  epoch: fields.epoch,
  outcome: fields.outcome,
  scores: fields.scores,
  timestamp: fields.timestamp,
  duration_seconds: fields.duration_seconds,
  cost_usd: fields.cost_usd,
  error_kind: ErrorKindSchema.optional(),
  output: z.object({
    error_kind: ErrorKindSchema.optional(),
    latency: z.number().nonnegative(),
    usage: UsageSchema,
  }),
  criteria: z.array(
    z.object({
      status: criterion.status,
      verification: criterion.verification,
      id: criterion.id,
      score: criterion.score,
      explanation: z.string().optional(),
    }),
  ),
  trial: z.literal(TRIAL_FIELDS_VERSION),
  attempts: fields.attempts.unwrap().optional(),
  error: z.string().optional(),
  evaluations: z.array(
    z.object({
      evaluator: evaluation.evaluator,
      score: evaluation.score,
      passed: evaluation.passed,
      negated: z.boolean(),
      explanation: z.string().optional(),
      error: z.string().optional(),
    }),
  ),
  metrics: ProcessMetricsSchema.optional(),
});
export type TrialSummary = z.infer<typeof TrialSummarySchema>;

const DEFAULT_METRICS = ProcessMetricsSchema.parse({});
const DEFAULT_METRICS_JSON = JSON.stringify(DEFAULT_METRICS);

const failing = (record: RunRecord) => record.outcome === 'fail' || record.outcome === 'error';

/** The stored summary of a record: the viewer's fields, then the trial fields (see above). */
export function trialSummary(record: RunRecord): TrialSummary {
  const explained = failing(record);
  const metricsJson = JSON.stringify(record.metrics);
  return {
    run_id: record.run_id,
    task_id: record.task_id,
    epoch: record.epoch,
    outcome: record.outcome,
    scores: record.scores,
    timestamp: record.timestamp,
    duration_seconds: record.duration_seconds,
    cost_usd: record.cost_usd,
    ...(record.error_kind === undefined ? {} : { error_kind: record.error_kind }),
    output: {
      ...(record.output.error_kind === undefined ? {} : { error_kind: record.output.error_kind }),
      latency: record.output.latency,
      usage: record.output.usage,
    },
    criteria: record.criteria.map((c) => ({
      status: c.status,
      verification: c.verification,
      id: c.id,
      score: c.score,
      ...(explained && (c.status === 'failed' || c.status === 'error') ? { explanation: c.explanation } : {}),
    })),
    trial: TRIAL_FIELDS_VERSION,
    ...(record.attempts === 1 ? {} : { attempts: record.attempts }),
    ...(explained && record.error !== undefined ? { error: record.error } : {}),
    evaluations: record.evaluations.map((e) => ({
      evaluator: e.evaluator,
      score: e.score,
      passed: e.passed,
      negated: e.negated,
      ...(explained && !e.passed ? { explanation: e.explanation } : {}),
      ...(explained && !e.passed && e.error !== undefined ? { error: e.error } : {}),
    })),
    ...(metricsJson === DEFAULT_METRICS_JSON ? {} : { metrics: record.metrics }),
  };
}

// Shared by every trial record (a few objects instead of a dozen per trial); nothing that reads
// trial records writes to them.
const none: never[] = [];
const nothing: Record<string, never> = {};
const noHarness: RunRecord['harness_config'] = { name: '', version: '', agents: none };
const untraced: RunRecord['trace'] = emptyTrace();

/** The trial record a stored summary describes. */
export function trialRecordOf(summary: TrialSummary): RunRecord {
  return {
    schema_version: 1,
    run_id: summary.run_id,
    task_id: summary.task_id,
    epoch: summary.epoch,
    attempts: summary.attempts ?? 1,
    harness_config: noHarness,
    timestamp: summary.timestamp,
    duration_seconds: summary.duration_seconds,
    cost_usd: summary.cost_usd,
    outcome: summary.outcome,
    ...(summary.error === undefined ? {} : { error: summary.error }),
    ...(summary.error_kind === undefined ? {} : { error_kind: summary.error_kind }),
    output: {
      output: null,
      latency: summary.output.latency,
      tool_calls: none,
      usage: summary.output.usage,
      metadata: nothing,
      ...(summary.output.error_kind === undefined ? {} : { error_kind: summary.output.error_kind }),
    },
    trace: untraced,
    evaluations:
      summary.evaluations.length === 0
        ? none
        : summary.evaluations.map((e) => ({
            evaluator: e.evaluator,
            score: e.score,
            passed: e.passed,
            explanation: e.explanation ?? '',
            details: nothing,
            negated: e.negated,
            ...(e.error === undefined ? {} : { error: e.error }),
          })),
    criteria:
      summary.criteria.length === 0
        ? none
        : summary.criteria.map((c) => ({
            id: c.id,
            verification: c.verification,
            status: c.status,
            score: c.score,
            explanation: c.explanation ?? '',
            grades: none,
            details: nothing,
          })),
    metrics: summary.metrics ?? DEFAULT_METRICS,
    by_role: nothing,
    scores: summary.scores,
    metadata: nothing,
  };
}

/** A whole record cut to its trial record: what a store without a trial summary returns. */
export function trialRecord(record: RunRecord): RunRecord {
  return trialRecordOf(trialSummary(record));
}

let exactCheck: ExactCheck | undefined | null = null;

/**
 * The trial record of a parsed stored summary when it has this version's trial fields and they
 * are valid, else undefined (an older summary, or a damaged one: the caller reads the document).
 */
export function trialRecordOfStored(value: unknown, runId: string): RunRecord | undefined {
  if (
    typeof value !== 'object' ||
    value === null ||
    (value as { trial?: unknown }).trial !== TRIAL_FIELDS_VERSION
  )
    return undefined;
  if (exactCheck === null) exactCheck = compileExactCheck(TrialSummarySchema);
  let summary: TrialSummary;
  if (exactCheck?.(value)) summary = value as TrialSummary;
  else {
    const parsed = TrialSummarySchema.safeParse(value);
    if (!parsed.success) return undefined;
    summary = parsed.data;
  }
  return summary.run_id === runId ? trialRecordOf(summary) : undefined;
}

/**
 * The trial records of rows of `run_id, summary`, in their order: from each row's summary, or —
 * for rows written before the trial fields (or with a damaged summary) — from the whole documents
 * that `documents` reads in one go (run_id -> decoded record). A row that is not two strings fails
 * with `store`.
 */
export async function trialRecordsOfRows(
  rows: readonly unknown[],
  experimentId: string,
  documents: (
    runIds: readonly string[],
  ) => Promise<ReadonlyMap<string, RunRecord>> | ReadonlyMap<string, RunRecord>,
): Promise<RunRecord[]> {
  const found: (RunRecord | string)[] = [];
  const missing: string[] = [];
  for (const raw of rows) {
    const row = raw as { run_id?: unknown; summary?: unknown };
    if (typeof row.run_id !== 'string' || (row.summary !== null && typeof row.summary !== 'string'))
      throw new HarnessEvalError('store', `a stored run of experiment ${experimentId} is corrupt`);
    const record = row.summary === null ? undefined : trialRecordOfStored(safeJson(row.summary), row.run_id);
    if (record === undefined) missing.push(row.run_id);
    found.push(record ?? row.run_id);
  }
  if (missing.length === 0) return found as RunRecord[];
  const whole = await documents(missing);
  return found.map((entry) => {
    if (typeof entry !== 'string') return entry;
    const record = whole.get(entry);
    if (record === undefined)
      throw new HarnessEvalError(
        'store',
        `run ${entry} of experiment ${experimentId} vanished while it was read`,
      );
    return trialRecord(record);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
