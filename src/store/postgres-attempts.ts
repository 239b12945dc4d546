import type pg from 'pg';
import { HarnessEvalError } from '../core/errors.ts';
import { decodeRecord, encodeDocument } from './documents.ts';
import { RecordRowSchema } from './sqlite-statements.ts';

type Client = Pick<pg.PoolClient, 'query'>;

export interface CountedAttempts {
  readonly experimentId: string;
  readonly taskId: string;
  readonly epoch: number;
  readonly attempts: number;
}

/**
 * Raises the stored record of a trial (task, epoch) to `attempts` when it says fewer; true when
 * it did. Runs inside the caller's transaction: the row stays locked from read to write. A queue
 * worker that vanished between committing a record and completing its job left the job to be
 * taken again: the trial ran once more, its record was refused (the first one wins), and the
 * stored one must still count that attempt. Never lowers the count.
 */
export async function countAttempts(
  client: Client,
  s: string,
  redact: (text: string) => string,
  trial: CountedAttempts,
): Promise<boolean> {
  const { experimentId, taskId, epoch, attempts } = trial;
  const { rows } = await client.query(
    `SELECT run_id, document FROM ${s}.records WHERE experiment_id = $1 AND task_id = $2 AND epoch = $3 FOR UPDATE`,
    [experimentId, taskId, epoch],
  );
  if (rows[0] === undefined) return false;
  const row = RecordRowSchema.safeParse(rows[0]);
  if (!row.success)
    throw new HarnessEvalError('store', `a stored run of experiment ${experimentId} is corrupt`);
  const { run_id: runId, document } = row.data;
  const record = decodeRecord(document, experimentId, runId);
  if (record.attempts >= attempts) return false;
  const text = encodeDocument({ ...record, attempts }, redact, `run ${runId} of experiment ${experimentId}`);
  await client.query(`UPDATE ${s}.records SET document = $3 WHERE experiment_id = $1 AND run_id = $2`, [
    experimentId,
    runId,
    text,
  ]);
  return true;
}
