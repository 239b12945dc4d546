import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { SuiteSchema } from '../../../src/core/suite.ts';
import { runExperiment } from '../../../src/runner/runner.ts';
import { aggregateExperiment } from '../../../src/scoring/experiment-aggregate.ts';
import { PostgresStore } from '../../../src/store/postgres-store.ts';
import { SqliteStore } from '../../../src/store/sqlite-store.ts';
import type { ExperimentStore } from '../../../src/store/types.ts';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../../helpers/postgres.ts';

// `run --retry-errors` without kept records (`keepRecords: false`, as the CLI runs) folds the
// records in plan order. The stored records it keeps were all read before the first trial ran and
// waited in the fold's buffer behind the first trial to retry: with errors scattered over 10,000
// trials, nearly every record of the experiment was held until the retries reached it. The kept
// records are now read as the fold reaches them.
const TRIALS = 10_000;
const EVERY = 100;

const harness = HarnessConfigSchema.parse({ name: 'scattered', version: '1.0.0', adapter: 'in-process' });
const suite = SuiteSchema.parse({
  id: 'scattered-errors',
  tasks: Array.from({ length: TRIALS }, (_, i) => ({ id: `t${i}`, input: String(i), expected: 'ok' })),
});

/** Errors outside the harness (retryable) on every 100th task, from the 50th on; passes elsewhere. */
function agent(erring: boolean, onRun: (position: number) => void = () => {}): AgentV1 {
  return {
    specificationVersion: 'v1',
    name: 'scattered',
    async run(input) {
      const position = Number(input);
      onRun(position);
      if (erring && position % EVERY === EVERY / 2)
        return agentOutput({ output: null, error: 'HTTP 503', error_kind: 'transient', latency: 0.01 });
      return agentOutput({ output: 'ok', latency: 0.01 });
    },
  };
}

/**
 * The store, with what each of its record reads has handed out so far (plan positions): a kept
 * record handed out ahead of a trial still to run waits in memory until that trial's record comes.
 */
function counting(store: ExperimentStore): { store: ExperimentStore; reads: number[][] } {
  const reads: number[][] = [];
  const wrapped = new Proxy(store, {
    get(target, name, receiver) {
      if (name === 'readRecordPages') {
        return (id: string, visit: (page: RunRecord[]) => void | Promise<void>, options?: object) => {
          const handedOut: number[] = [];
          reads.push(handedOut);
          return target.readRecordPages(
            id,
            (page) => {
              for (const record of page) handedOut.push(Number(record.task_id.slice(1)));
              return visit(page);
            },
            options,
          );
        };
      }
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, reads };
}

let dir = '';
let url = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-retry-fold-'));
  url = await createTestDatabase();
}, POSTGRES_SETUP_TIMEOUT_MS);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// PostgreSQL reads the kept records in one read-only transaction while the run commits on other
// connections of the pool.
const stores: [string, () => Promise<ExperimentStore>][] = [
  ['sqlite', async () => new SqliteStore(join(dir, 'scattered.db'), { durability: 'normal' })],
  ['postgres', () => PostgresStore.open(url, { schema: 'scattered' })],
];

describe.each(stores)(
  'runExperiment({ retryErrors, keepRecords: false }), errors scattered over 10,000 trials (%s)',
  (_name, open) => {
    it('holds about a page of kept records, not the experiment, and gives the metrics of the whole records', async () => {
      const backing = await open();
      try {
        const settings = { concurrency: 16, retries: 0 };
        const first = await runExperiment({
          suite,
          harness,
          agent: agent(true),
          store: backing,
          keepRecords: false,
          settings,
        });
        expect(first.metrics.find((m) => m.name === 'success_rate')?.value).toBe(1 - 1 / EVERY);

        const { store, reads } = counting(backing);
        // The first read plans the run (counts the stored trials, holds nothing); the kept records
        // come from the reads after it.
        let mostAhead = 0;
        const retried = await runExperiment({
          suite,
          harness,
          agent: agent(false, (position) => {
            const ahead = reads.slice(1).reduce((n, read) => n + read.filter((p) => p > position).length, 0);
            mostAhead = Math.max(mostAhead, ahead);
          }),
          store,
          retryErrors: first.id,
          keepRecords: false,
          settings,
        });
        expect(reads[0]).toHaveLength(TRIALS);
        // At most a page (1,000 records) read ahead of the trial being retried, and the page after it.
        expect(mostAhead).toBeLessThanOrEqual(2_000);
        expect(retried.metrics.find((m) => m.name === 'success_rate')?.value).toBe(1);
        const stored = await backing.getExperiment(first.id);
        const kept = (stored?.records ?? []).filter((r) => r.outcome === 'pass');
        expect(kept).toHaveLength(TRIALS);
        const whole = aggregateExperiment({ suite, records: kept, tasks: suite.tasks, epochs: 1 });
        expect(retried.metrics).toEqual(whole.metrics);
        expect(retried.scores).toEqual(whole.scores);
      } finally {
        await backing.close();
      }
    }, 120_000);
  },
);
