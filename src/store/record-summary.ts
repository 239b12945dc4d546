import { z } from 'zod';
import { ErrorKindSchema } from '../core/agent-output.ts';
import { HarnessEvalError } from '../core/errors.ts';
import { CriterionResultSchema } from '../core/evaluation.ts';
import { type Outcome, type RunRecord, RunRecordSchema } from '../core/run-record.ts';
import { describeIssues, encodeDocument } from './documents.ts';
import { TrialSummarySchema, trialSummary } from './trial-record.ts';
import type { RecordPagesOptions, RecordQuery, RecordSummary } from './types.ts';

/**
 * A trial's summary, read from its stored document by every store the same way. Only the fields
 * a summary carries are checked, so 10,000 of them cost a JSON parse each and no walk of outputs
 * and traces. They are the leading fields of the stored trial summary (trial-record.ts), picked
 * from its schema so the two cannot drift; `criteria` may be absent (records from before it).
 */
const fields = RunRecordSchema.shape;
const criterion = CriterionResultSchema.shape;
const trial = TrialSummarySchema.shape;
export const SummarySourceSchema = TrialSummarySchema.pick({
  run_id: true,
  task_id: true,
  epoch: true,
  outcome: true,
  scores: true,
  timestamp: true,
  duration_seconds: true,
  cost_usd: true,
  error_kind: true,
}).extend({
  output: trial.output.pick({ error_kind: true }),
  criteria: z.array(trial.criteria.element.pick({ status: true, verification: true })).default([]),
});

/**
 * When the trial ended: its start (`timestamp`) plus its duration, as an ISO time; null when the
 * start is not a time Date can read (then nothing may be said of its order).
 */
export function finishedAt(record: {
  readonly timestamp: string;
  readonly duration_seconds: number;
}): string | null {
  const start = Date.parse(record.timestamp);
  if (Number.isNaN(start)) return null;
  const end = new Date(start + record.duration_seconds * 1000);
  return Number.isNaN(end.getTime()) ? null : end.toISOString();
}

const OUTCOMES: ReadonlySet<unknown> = new Set(fields.outcome.options);
const ERROR_KINDS: ReadonlySet<unknown> = new Set(ErrorKindSchema.options);
const STATUSES: ReadonlySet<unknown> = new Set(criterion.status.options);
const VERIFICATIONS: ReadonlySet<unknown> = new Set(criterion.verification.options);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isAmount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * The summary when every field it reads is as SummarySourceSchema demands (absent ones take the
 * schema's defaults), else undefined. The same verdict as the schema, in plain checks: 10,000
 * zod parses cost more than the page they are for; the schema still writes the message.
 */
export function summaryOf(value: unknown, runId: string): RecordSummary | undefined {
  if (!isObject(value)) return undefined;
  const { task_id, outcome, timestamp, duration_seconds, output } = value;
  // Only an absent field takes the schema's default: null is a value, and a wrong one.
  const orDefault = (key: string, fallback: unknown) => (value[key] === undefined ? fallback : value[key]);
  const epoch = orDefault('epoch', 0);
  const scores = orDefault('scores', {});
  const cost = orDefault('cost_usd', null);
  const criteria = orDefault('criteria', []);
  if (value['run_id'] !== runId || typeof task_id !== 'string' || !isCount(epoch)) return undefined;
  if (typeof timestamp !== 'string') return undefined;
  if (!OUTCOMES.has(outcome) || !isAmount(duration_seconds) || (cost !== null && !isAmount(cost)))
    return undefined;
  if (!isObject(scores) || !Object.values(scores).every((v) => isAmount(v) && v <= 1)) return undefined;
  if (!isObject(output) || !Array.isArray(criteria)) return undefined;
  const kind = value['error_kind'] ?? output['error_kind'];
  if (value['error_kind'] !== undefined && !ERROR_KINDS.has(value['error_kind'])) return undefined;
  if (output['error_kind'] !== undefined && !ERROR_KINDS.has(output['error_kind'])) return undefined;
  let pending = 0;
  for (const c of criteria) {
    if (!isObject(c) || !STATUSES.has(c['status']) || !VERIFICATIONS.has(c['verification'])) return undefined;
    if (c['status'] === 'pending' && c['verification'] !== 'automated') pending++;
  }
  return {
    run_id: runId,
    task_id,
    epoch,
    outcome: outcome as RecordSummary['outcome'],
    scores: scores as Record<string, number>,
    timestamp,
    finished_at: finishedAt({ timestamp, duration_seconds }),
    duration_seconds,
    cost_usd: cost,
    ...(kind === undefined ? {} : { error_kind: kind as NonNullable<RecordSummary['error_kind']> }),
    pending_criteria: pending,
  };
}

/** Why a stored record's summary fields are not valid: the schema's located message, as a `store` error. */
function corruptSummary(value: unknown, what: string): HarnessEvalError {
  const parsed = SummarySourceSchema.safeParse(value);
  const reason = parsed.success
    ? 'its summary fields disagree with the schema'
    : describeIssues(parsed.error).join('; ');
  return new HarnessEvalError(
    'store',
    `${what} is corrupt: ${reason}`,
    parsed.success ? {} : { cause: parsed.error },
  );
}

/** The summary of one stored record (its JSON text); a damaged one fails with `store`, naming it. */
export function summarizeRecord(text: string, experimentId: string, runId: string): RecordSummary {
  const what = `stored run ${runId} of experiment ${experimentId}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HarnessEvalError('store', `${what} is corrupt: not JSON`, { cause: error });
  }
  const summary = summaryOf(value, runId);
  if (summary !== undefined) return summary;
  if (isObject(value) && value['run_id'] !== runId && typeof value['run_id'] === 'string')
    throw new HarnessEvalError('store', `${what} is corrupt: its document has run_id ${value['run_id']}`);
  throw corruptSummary(value, what);
}

/** A query's window as whole non-negative numbers; `limit` undefined means all. */
export function recordWindow(query: RecordQuery): { offset: number; limit: number | undefined } {
  const whole = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.trunc(n)) : 0);
  return {
    offset: query.offset === undefined ? 0 : whole(query.offset),
    limit: query.limit === undefined ? undefined : whole(query.limit),
  };
}

/** `readRecordPages`' page size as a whole number of at least 1 (default 1,000). */
export function recordPageSize(options: RecordPagesOptions): number {
  const size = options.pageSize ?? 1000;
  return Number.isFinite(size) ? Math.max(1, Math.trunc(size)) : 1000;
}

/**
 * The text of a record's summary, stored beside its document (a `summary` column) when the record
 * is written: the viewer's fields in the record's own shape, then the trial fields
 * (trial-record.ts), so a summary read parses a few hundred bytes per trial instead of the whole
 * document. Secrets are scrubbed as in the document (the trial fields keep failure texts).
 */
export function summarySource(record: RunRecord, redact: (text: string) => string): string {
  return encodeDocument(trialSummary(record), redact, `the summary of run ${record.run_id}`);
}

/** A stored row's summary from its `summary` column; undefined when it has none or no valid one. */
export function summaryOfRow(row: {
  readonly run_id: string;
  readonly summary: string | null;
}): RecordSummary | undefined {
  if (row.summary === null) return undefined;
  try {
    return summaryOf(JSON.parse(row.summary), row.run_id);
  } catch {
    return undefined;
  }
}

/** The outcomes a query's `outcome` filter keeps, as a list (undefined: every outcome). */
export function queriedOutcomes(query: RecordQuery): readonly Outcome[] | undefined {
  const { outcome } = query;
  return outcome === undefined ? undefined : typeof outcome === 'string' ? [outcome] : outcome;
}
