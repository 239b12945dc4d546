import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';
import { runFaultDrill } from '../helpers/queue-fault.ts';

// The fault drill of issue 15, part of `npm test` (and so of .ci/run; `npm run test:fault` runs it
// alone): 3 worker processes, 2,000 trials of a 5–20 ms HTTP agent on 127.0.0.1, one worker
// SIGKILLed twice at random moments and restarted, the coordinator SIGKILLed once and resumed with
// `run --resume ID --queue …`, through the built CLI on a real PostgreSQL; the finished experiment
// leaves no job rows. ~18 s on a quiet 2-core machine. Its figures are printed, and written down in
// docs/scale-out.md.
let root = '';
let url = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-queue-fault-'));
  url = await createTestDatabase();
}, POSTGRES_SETUP_TIMEOUT_MS);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the queue under faults', () => {
  it('2,000 trials, a worker SIGKILLed twice, the coordinator once: each (task, epoch) once, retries counted, metrics as one SQLite process', async () => {
    const lines: string[] = [];
    const result = await runFaultDrill({
      url,
      dir: root,
      tasks: 400,
      epochs: 5,
      workers: 3,
      jobs: 4,
      workerKills: 2,
      log: (line) => lines.push(line),
    });
    const { queueMetrics: _q, localMetrics: _l, ...figures } = result;
    console.log(`fault drill:\n${lines.join('\n')}\n${JSON.stringify(figures, null, 2)}`);
    expect(result.kills).toHaveLength(3);
    expect(result.coordinatorStatus).toBe(0);
    expect(result.status).toBe('completed');
    expect(result.records).toBe(2000);
    expect(result.distinctTrials).toBe(2000);
    // Finished: none of its 2,000 jobs is left in the queue's table.
    expect(result.jobRowsLeft).toEqual({});
    // A trial a killed worker had in flight ran again elsewhere, and its record says so.
    expect(result.retries).toBeGreaterThanOrEqual(result.retriedRecords);
    expect(result.retriedRecords).toBeGreaterThan(0);
    expect(result.agentCalls).toBeGreaterThanOrEqual(2000);
    expect(result.localStatus).toBe(0);
    expect(result.queueMetrics).toEqual(result.localMetrics);
    expect(Object.keys(result.queueMetrics)).toContain('success_rate');
  }, 600_000);
});
