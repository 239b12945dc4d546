import { z } from 'zod';
import { ErrorKindSchema } from '../core/agent-output.ts';
import { HarnessEvalError } from '../core/errors.ts';
import { CriterionResultSchema } from '../core/evaluation.ts';
import { RunRecordSchema } from '../core/run-record.ts';
import { describeIssues } from './documents.ts';
import type { RecordQuery, RecordSummary } from './types.ts';

/**
 * A trial's summary, read from its stored document by every store the same way. Only the fields
 * a summary carries are checked, each by the record schema's own field schema, so 10,000 of them
 * cost a JSON parse each and no walk of outputs and traces.
 */
const fields = RunRecordSchema.shape;
const criterion = CriterionResultSchema.shape;
const SummarySourceSchema = z.object({
  run_id: fields.run_id,
  task_id: fields.task_id,
  epoch: fields.epoch.unwrap(),
  outcome: fields.outcome,
  scores: fields.scores.unwrap(),
  duration_seconds: fields.duration_seconds,
  cost_usd: fields.cost_usd.unwrap(),
  error_kind: fields.error_kind,
  output: z.object({ error_kind: ErrorKindSchema.optional() }),
  criteria: z.array(z.object({ status: criterion.status, verification: criterion.verification })),
});

/** The summary of one stored record (its JSON text); a damaged one fails with `store`, naming it. */
export function summarizeRecord(text: string, experimentId: string, runId: string): RecordSummary {
  const what = `stored run ${runId} of experiment ${experimentId}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HarnessEvalError('store', `${what} is corrupt: not JSON`, { cause: error });
  }
  const parsed = SummarySourceSchema.safeParse(value);
  if (!parsed.success)
    throw new HarnessEvalError('store', `${what} is corrupt: ${describeIssues(parsed.error).join('; ')}`, {
      cause: parsed.error,
    });
  const r = parsed.data;
  if (r.run_id !== runId)
    throw new HarnessEvalError('store', `${what} is corrupt: its document has run_id ${r.run_id}`);
  const errorKind = r.error_kind ?? r.output.error_kind;
  return {
    run_id: r.run_id,
    task_id: r.task_id,
    epoch: r.epoch,
    outcome: r.outcome,
    scores: r.scores,
    duration_seconds: r.duration_seconds,
    cost_usd: r.cost_usd,
    ...(errorKind === undefined ? {} : { error_kind: errorKind }),
    pending_criteria: r.criteria.filter((c) => c.status === 'pending' && c.verification !== 'automated')
      .length,
  };
}

/** A query's window as whole non-negative numbers; `limit` undefined means all. */
export function recordWindow(query: RecordQuery): { offset: number; limit: number | undefined } {
  const whole = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.trunc(n)) : 0);
  return {
    offset: query.offset === undefined ? 0 : whole(query.offset),
    limit: query.limit === undefined ? undefined : whole(query.limit),
  };
}
