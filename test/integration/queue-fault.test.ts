import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';
import { runFaultDrill } from '../helpers/queue-fault.ts';

// The reduced fault drill (the full one, 2,000 trials with two worker kills, is test/fault/, run by
// `npm run test:fault`): 300 trials of a real HTTP agent over 3 worker processes, one worker and the
// coordinator SIGKILLed at random moments and brought back, through the built CLI on PostgreSQL.
let root = '';
let url = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-queue-fault-'));
  url = await createTestDatabase();
}, POSTGRES_SETUP_TIMEOUT_MS);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the queue under faults (reduced)', () => {
  it('300 trials, one worker and the coordinator SIGKILLed: each (task, epoch) once, retries counted, metrics as one SQLite process', async () => {
    const result = await runFaultDrill({
      url,
      dir: root,
      tasks: 100,
      epochs: 3,
      workers: 3,
      jobs: 4,
      workerKills: 1,
    });
    expect(result.kills).toHaveLength(2);
    expect(result.coordinatorStatus).toBe(0);
    expect(result.status).toBe('completed');
    expect(result.records).toBe(300);
    expect(result.distinctTrials).toBe(300);
    // A trial the killed worker had in flight ran again elsewhere, and its record says so.
    expect(result.retries).toBeGreaterThanOrEqual(result.retriedRecords);
    expect(result.agentCalls).toBeGreaterThanOrEqual(300);
    expect(result.localStatus).toBe(0);
    expect(result.queueMetrics).toEqual(result.localMetrics);
    expect(Object.keys(result.queueMetrics)).toContain('success_rate');
  }, 300_000);
});
