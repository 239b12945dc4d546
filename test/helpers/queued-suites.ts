import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessConfigSchema } from '../../src/core/harness-config.ts';
import { type Suite, SuiteSchema } from '../../src/core/suite.ts';
import { type Enqueued, enqueueExperiment } from '../../src/queue/enqueue.ts';
import type { QueueStore } from '../../src/queue/trial-job.ts';
import type { TrialQueue } from '../../src/queue/trial-queue.ts';

/**
 * Queued experiments made in process, for tests and benchmarks of the queue's tables: a suite of
 * `tasks` tasks t0, t1, … (never run: no worker loads it) and `run --queue`'s own enqueue.
 */
const harness = HarnessConfigSchema.parse({ name: 'queued', version: '1.0.0', adapter: 'in-process' });
let suites = 0;

export function queuedSuite(tasks: number): Suite {
  suites += 1;
  return SuiteSchema.parse({
    id: `queued-${process.pid}-${suites}`,
    tasks: Array.from({ length: tasks }, (_, i) => ({ id: `t${i}`, input: `task ${i}` })),
    source: { format: 'benchmark-v1', file: join(tmpdir(), 'evals', 'suite.yaml'), hash: 'sha256:test' },
  });
}

/** Stores the experiment and enqueues one job per trial, as `run --queue --detach` (`resume`: `--resume ID`). */
export function enqueueSuite(
  store: QueueStore,
  queue: TrialQueue,
  suite: Suite,
  resume?: string,
): Promise<Enqueued> {
  const cwd = tmpdir();
  return enqueueExperiment({
    store,
    queue,
    suite,
    harness,
    harnessBaseDir: cwd,
    cwd,
    ...(resume === undefined ? {} : { resume }),
  });
}
