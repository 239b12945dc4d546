import type pg from 'pg';
import { HarnessEvalError } from '../core/errors.ts';
import {
  type ChildProcessRecord,
  ChildProcessSchema,
  type LeaseHolder,
  LeaseHolderSchema,
  type StoredChildProcess,
  sameProcess,
} from './run-bookkeeping.ts';

/**
 * The run bookkeeping of the PostgreSQL store (leases and recorded child processes), the same
 * rules as SQLite's (sqlite-bookkeeping.ts). Each function runs on a client the store gives it; the
 * lease functions expect to be inside a transaction.
 */

type Client = Pick<pg.PoolClient, 'query'>;

function parsed<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  text: unknown,
  what: string,
): T {
  let value: unknown;
  try {
    value = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    value = undefined;
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new HarnessEvalError('store', `${what} is corrupt`);
  return result.data;
}

/**
 * Takes the lease unless another live holder has it; the experiment row is locked first, so of
 * two processes asking at once one waits and then sees the other's lease. Undefined: no experiment.
 */
export async function acquireLease(
  client: Client,
  s: string,
  experimentId: string,
  holder: LeaseHolder,
  replacing: LeaseHolder | undefined,
): Promise<LeaseHolder | undefined> {
  const next = LeaseHolderSchema.parse(holder);
  const locked = await client.query(`SELECT 1 FROM ${s}.experiments WHERE id = $1 FOR UPDATE`, [
    experimentId,
  ]);
  if (locked.rowCount === 0) return undefined;
  const current = await lease(client, s, experimentId);
  if (current === undefined || (replacing !== undefined && sameProcess(current, replacing))) {
    await client.query(
      `INSERT INTO ${s}.leases (experiment_id, holder) VALUES ($1, $2)
       ON CONFLICT (experiment_id) DO UPDATE SET holder = excluded.holder`,
      [experimentId, JSON.stringify(next)],
    );
    return next;
  }
  return current;
}

export async function releaseLease(
  client: Client,
  s: string,
  experimentId: string,
  holder: LeaseHolder,
): Promise<void> {
  await client.query(`SELECT 1 FROM ${s}.experiments WHERE id = $1 FOR UPDATE`, [experimentId]);
  const current = await lease(client, s, experimentId);
  if (current !== undefined && sameProcess(current, holder))
    await client.query(`DELETE FROM ${s}.leases WHERE experiment_id = $1`, [experimentId]);
}

async function lease(client: Client, s: string, experimentId: string): Promise<LeaseHolder | undefined> {
  const row = await client.query(`SELECT holder FROM ${s}.leases WHERE experiment_id = $1`, [experimentId]);
  const holder: unknown = row.rows[0]?.holder;
  return holder === undefined
    ? undefined
    : parsed(LeaseHolderSchema, holder, `the lease of experiment ${experimentId}`);
}

/** Records a child (a re-recorded pid sorts as new). False: no such experiment. */
export async function recordChildProcess(
  client: Client,
  s: string,
  experimentId: string,
  child: ChildProcessRecord,
): Promise<boolean> {
  const record = ChildProcessSchema.parse(child);
  const inserted = await client.query(
    `WITH gone AS (DELETE FROM ${s}.child_processes WHERE experiment_id = $1 AND pid = $2)
     INSERT INTO ${s}.child_processes (experiment_id, pid, document)
     SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM ${s}.experiments WHERE id = $1)`,
    [experimentId, record.pid, JSON.stringify(record)],
  );
  return (inserted.rowCount ?? 0) > 0;
}

export async function forgetChildProcess(
  client: Client,
  s: string,
  experimentId: string,
  pid: number,
): Promise<void> {
  await client.query(`DELETE FROM ${s}.child_processes WHERE experiment_id = $1 AND pid = $2`, [
    experimentId,
    pid,
  ]);
}

export async function listChildProcesses(client: Client, s: string): Promise<StoredChildProcess[]> {
  const rows = await client.query(`SELECT experiment_id, document FROM ${s}.child_processes ORDER BY seq`);
  return rows.rows.map((row: { experiment_id?: unknown; document?: unknown }) => {
    if (typeof row.experiment_id !== 'string')
      throw new HarnessEvalError('store', 'a recorded child process is corrupt');
    return {
      ...parsed(ChildProcessSchema, row.document, 'a recorded child process'),
      experiment_id: row.experiment_id,
    };
  });
}
