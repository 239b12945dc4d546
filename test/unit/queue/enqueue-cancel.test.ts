import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { SuiteSchema } from '../../../src/core/suite.ts';
import { enqueueExperiment } from '../../../src/queue/enqueue.ts';
import { cancelExperiment } from '../../../src/queue/follow.ts';
import { asQueueStore, planJobIds, type QueueStore } from '../../../src/queue/trial-job.ts';
import { TrialQueue } from '../../../src/queue/trial-queue.ts';
import { PostgresStore } from '../../../src/store/postgres-store.ts';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../../helpers/postgres.ts';

// `runs cancel ID` (another process) while `run --queue` is still putting the experiment's jobs in
// the queue, on a real PostgreSQL. The cancel could only cancel the jobs already in; the ones
// enqueued after it waited as usual, and workers took them and ran trials of the stopped
// experiment. The user cannot time this through the CLI, so the test puts the cancel between two
// batches of the enqueue itself.
let store: QueueStore;
let queue: TrialQueue;
beforeAll(async () => {
  const url = await createTestDatabase();
  store = asQueueStore(await PostgresStore.open(url));
  queue = await TrialQueue.open(url);
}, POSTGRES_SETUP_TIMEOUT_MS);
afterAll(async () => {
  await queue?.close();
  await store?.close();
});

const suite = SuiteSchema.parse({
  id: 'cancel-race',
  tasks: Array.from({ length: 20 }, (_, i) => ({ id: `t${i}`, input: `task ${i}` })),
  source: { format: 'benchmark-v1', file: join(tmpdir(), 'evals', 'suite.yaml'), hash: 'sha256:test' },
});
const harness = HarnessConfigSchema.parse({ name: 'queued', version: '1.0.0', adapter: 'in-process' });

/** The real queue, whose enqueue lets a cancel of the experiment in after its first `first` jobs. */
function cancelledWhileEnqueuing(first: number): TrialQueue {
  return new Proxy(queue, {
    get(target, name) {
      if (name === 'enqueue') {
        return async (given: Parameters<TrialQueue['enqueue']>[0], expiry: number) => {
          const jobs = [...given];
          await target.enqueue(jobs.slice(0, first), expiry);
          const experimentId = jobs[0]?.data.experiment_id ?? '';
          await cancelExperiment(store, target, experimentId);
          return (await target.enqueue(jobs.slice(first), expiry)) + first;
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('a cancel while run --queue enqueues the experiment', () => {
  it('leaves none of its jobs waiting for a worker', async () => {
    const { experiment } = await enqueueExperiment({
      store,
      queue: cancelledWhileEnqueuing(10),
      suite,
      harness,
      harnessBaseDir: tmpdir(),
      cwd: tmpdir(),
    });
    const stored = await store.getExperimentDocument(experiment.id);
    expect(stored?.status).toBe('interrupted');
    expect(await queue.states(planJobIds(experiment))).toEqual({ cancelled: 20 });
    expect(await queue.take([], 20)).toEqual([]);
  });
});
