import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cancelExperiment } from '../../src/queue/follow.ts';
import { asQueueStore, type QueueStore } from '../../src/queue/trial-job.ts';
import { TrialQueue } from '../../src/queue/trial-queue.ts';
import type { ExperimentDocument } from '../../src/store/documents.ts';
import { PostgresStore } from '../../src/store/postgres-store.ts';
import { checkOutput, docBlocks } from '../helpers/doc-commands.ts';
import { jobRows, useQueueWorkers, workerHoldingATrial } from '../helpers/queue-workers.ts';
import { enqueueSuite, queuedSuite } from '../helpers/queued-suites.ts';
import { alive, cli, ROOT, waitFor } from '../helpers/run-cli.ts';

// Cleaning the queue's job table through the built CLI (`npx tsdown` first) on a real PostgreSQL:
// `runs cleanup --queue` (its example in docs/scale-out.md is run here and held to the output the
// doc shows) and `runs delete` of a queued experiment while a worker runs one of its trials.
const DOC = 'docs/scale-out.md';
const TEST_TIMEOUT_MS = 180_000;

const queue = useQueueWorkers('harnesseval-queue-cleanup-');

async function queued(store: QueueStore, trialQueue: TrialQueue, tasks: number): Promise<ExperimentDocument> {
  return (await enqueueSuite(store, trialQueue, queuedSuite(tasks))).experiment;
}

/**
 * What a release that deleted no job left in the queue: three finished experiments of 500 jobs
 * with every row, the 20 jobs of an experiment deleted since, and an interrupted experiment's 40.
 */
async function legacyQueue(
  url: string,
): Promise<{ finished: string[]; deleted: string; interrupted: string }> {
  const store = asQueueStore(await PostgresStore.open(url));
  const trialQueue = await TrialQueue.open(url);
  try {
    const finished: string[] = [];
    for (let i = 0; i < 3; i++) {
      const experiment = await queued(store, trialQueue, 500);
      const taken = await trialQueue.take([], 500);
      await trialQueue.complete(taken.map((job) => job.id));
      await store.updateExperiment(experiment.id, { status: 'completed' });
      finished.push(experiment.id);
    }
    const deleted = await queued(store, trialQueue, 20);
    await store.deleteExperiment(deleted.id);
    const interrupted = await queued(store, trialQueue, 40);
    await trialQueue.take([], 5);
    await cancelExperiment(store, trialQueue, interrupted.id);
    return { finished, deleted: deleted.id, interrupted: interrupted.id };
  } finally {
    await trialQueue.close();
    await store.close();
  }
}

describe('runs cleanup --queue', () => {
  it(`runs its example in ${DOC}: the rows finished and deleted experiments left go, an interrupted one's stay`, async () => {
    const { url, root } = queue;
    const left = await legacyQueue(url);
    const block = docBlocks(DOC, readFileSync(join(ROOT, DOC), 'utf8')).find((b) =>
      b.commands.some((c) => c.command.includes('cleanup --queue')),
    );
    expect(block?.commands.length).toBeGreaterThan(0);
    for (const command of block?.commands ?? []) {
      const argv = command.command.replace(/^harnesseval\s+/, '').split(/\s+/);
      const result = await cli(argv, root, { HARNESSEVAL_STORE: url });
      const printed = `${result.stdout}${result.stderr}`;
      expect(result.status, printed).toBe(0);
      expect(checkOutput(command.expected ?? [], printed, new Map()).missing, printed).toBeUndefined();
    }
    for (const id of [...left.finished, left.deleted]) expect(await jobRows(url, id)).toEqual({});
    expect(await jobRows(url, left.interrupted)).toEqual({ cancelled: 40 });

    // Again, the database named by --queue: only what it keeps is left to say.
    const again = await cli(['runs', 'cleanup', '--queue', url], root);
    expect(again.stdout).not.toContain('Deleted');
    expect(again.stdout).toContain('Kept 40 job rows of 1 interrupted experiment');
    expect(again.status).toBe(0);
  });

  it('needs a PostgreSQL store, and one database', async () => {
    const { url, root } = queue;
    const sqlite = await cli(['runs', '--store', 'local.db', 'cleanup', '--queue'], root);
    expect(sqlite.stderr).toContain('--queue needs a PostgreSQL store (a postgres:// URL), not local.db');
    expect(sqlite.status).toBe(2);
    const two = await cli(['runs', '--store', url, 'cleanup', '--queue', `${url}x`], root);
    expect(two.stderr).toContain('give --store or --queue URL, not both');
    expect(two.status).toBe(2);
  });
});

describe('runs delete of a queued experiment', () => {
  it(
    'deletes its jobs too; the worker running one of its trials stops it and stores nothing',
    async () => {
      const { url, pool } = queue;
      const { dir, id, worker, held } = await workerHoldingATrial(queue, 'delete');

      const deleted = await cli(['runs', '--store', url, 'delete', id], dir);
      expect(deleted.stderr).not.toMatch(/\n\s+at /);
      expect(deleted.stdout).toMatch(
        new RegExp(`^Deleted ${id} \\(4 records\\) from .*, and its 5 jobs from the queue$`, 'm'),
      );
      expect(deleted.status).toBe(0);
      expect(await jobRows(url, id)).toEqual({});
      // The worker sees its job gone and stops the trial long before the agent would answer.
      await waitFor(() => !alive(held.agent), 20_000);
      await waitFor(
        () => worker.stderr().includes(`the jobs of experiment ${id} held here were deleted`),
        20_000,
      );
      expect(worker.child.exitCode).toBeNull();
      expect(worker.stderr()).not.toMatch(/put back/);
      const list = await cli(['runs', '--store', url, 'list', '--format', 'json'], dir);
      expect((JSON.parse(list.stdout) as { id: string }[]).map((e) => e.id)).not.toContain(id);
      expect(await pool.stop(worker)).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
