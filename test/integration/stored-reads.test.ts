import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentV1 } from '../../src/adapters/types.ts';
import { agentOutput } from '../../src/core/agent-output.ts';
import type { Experiment } from '../../src/core/experiment.ts';
import { HarnessConfigSchema } from '../../src/core/harness-config.ts';
import type { RunRecord } from '../../src/core/run-record.ts';
import { type Suite, SuiteSchema } from '../../src/core/suite.ts';
import { finishIfComplete } from '../../src/queue/finish.ts';
import { runExperiment } from '../../src/runner/runner.ts';
import { aggregateExperiment } from '../../src/scoring/experiment-aggregate.ts';
import { PostgresStore } from '../../src/store/postgres-store.ts';
import { SqliteStore } from '../../src/store/sqlite-store.ts';
import type { ExperimentStore, RecordQuery } from '../../src/store/types.ts';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';

// Resume and the queue's finish read a stored experiment a page at a time (readRecordPages), never
// whole (getExperiment, or a list without a limit), and give the numbers the whole read gives.
// 400 tasks x 3 epochs: more than one page (1,000) of records. Real SQLite files, real PostgreSQL.
const TASKS = 400;
const EPOCHS = 3;
const PAGE = 1000;
const TEST_TIMEOUT_MS = 120_000;

let root = '';
let url = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-stored-reads-'));
  url = await createTestDatabase();
}, POSTGRES_SETUP_TIMEOUT_MS);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Reads {
  /** Each read of every record at once: getExperiment, or a list without a limit. */
  readonly whole: string[];
  pages: number;
  /** Pages of whole records (the rest are trial records). */
  wholePages: number;
  largestPage: number;
}

/** The store with its record reads counted; everything else passes through. */
function counted<S extends ExperimentStore>(store: S): { store: S; reads: Reads } {
  const reads: Reads = { whole: [], pages: 0, wholePages: 0, largestPage: 0 };
  const lists = new Set(['listRecords', 'listTrialRecords', 'listRecordSummaries']);
  const proxy = new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (prop === 'getExperiment')
        return (...args: unknown[]) => {
          reads.whole.push('getExperiment');
          return method.apply(target, args);
        };
      if (typeof prop === 'string' && lists.has(prop))
        return (id: string, query?: RecordQuery) => {
          if (query?.limit === undefined) reads.whole.push(prop);
          return method.call(target, id, query);
        };
      if (prop === 'readRecordPages')
        return (id: string, visit: (page: RunRecord[]) => unknown, options?: { whole?: boolean }) =>
          method.call(
            target,
            id,
            (page: RunRecord[]) => {
              reads.pages += 1;
              if (options?.whole === true) reads.wholePages += 1;
              reads.largestPage = Math.max(reads.largestPage, page.length);
              return visit(page);
            },
            options,
          );
      return method.bind(target);
    },
  });
  return { store: proxy, reads };
}

const harness = HarnessConfigSchema.parse({ name: 'scripted', version: '1.0.0', adapter: 'in-process' });

function suiteOf(metrics: string[], criteria = false): Suite {
  return SuiteSchema.parse({
    id: 'paged-resume',
    tasks: Array.from({ length: TASKS }, (_, i) => ({
      id: `t${i}`,
      input: `task ${i}`,
      expected: `answer ${i}`,
      ...(criteria ? { criteria: [{ id: 'answer', evaluator: { name: 'exact_match' } }] } : {}),
    })),
    metrics: metrics.map((name) => ({ name })),
    thresholds: { success_rate: { minimum: 0.9 } },
  });
}

/**
 * Deterministic per task: one in five answers wrong; with `flaky`, one in seven errors with a
 * transient failure the first time it is asked (a service that was down), and passes after.
 */
function agent(flaky = false): AgentV1 {
  const asked = new Set<string>();
  return {
    specificationVersion: 'v1',
    name: 'scripted',
    async run(input) {
      const text = String(input);
      const n = Number(text.split(' ')[1]);
      const first = !asked.has(text);
      asked.add(text);
      if (flaky && first && n % 7 === 3)
        return agentOutput({ output: null, error: 'HTTP 503', error_kind: 'transient' });
      return agentOutput({ output: n % 5 === 0 ? 'wrong' : text.replace('task', 'answer') });
    },
  };
}

/** Metrics that do not depend on the clock (two runs measure different latencies). */
function clockless(experiment: Pick<Experiment, 'metrics'>) {
  return experiment.metrics.filter((m) => !/latency|duration|time/i.test(m.name));
}

/** What the whole read gives: aggregateExperiment over getExperiment's records (as before). */
async function wholeAggregate(store: ExperimentStore, id: string, suite: Suite) {
  const stored = await store.getExperiment(id);
  if (stored === undefined) throw new Error(`no experiment ${id}`);
  return aggregateExperiment({ suite, records: stored.records, tasks: suite.tasks, epochs: EPOCHS });
}

let files = 0;
async function sqlite(): Promise<SqliteStore> {
  files += 1;
  return new SqliteStore(join(root, `store-${files}.db`));
}

/** A run interrupted after `after` trials; returns its id. */
async function interruptedRun(store: ExperimentStore, suite: Suite, after: number, flaky = false) {
  const stop = new AbortController();
  let ended = 0;
  const experiment = await runExperiment({
    suite,
    harness,
    agent: agent(flaky),
    store,
    keepRecords: false,
    settings: { epochs: EPOCHS, concurrency: 4, seed: 7 },
    signal: stop.signal,
    graceMs: 5000,
    onEvent: (event) => {
      if (event.type === 'trial_end' && ++ended === after) stop.abort();
    },
  });
  return experiment;
}

describe('resume reads the stored trials a page at a time', () => {
  const variants = [
    { name: 'default metrics: whole pages', metrics: [], criteria: false, wholePages: true },
    { name: 'default metrics, criteria: trial records', metrics: [], criteria: true, wholePages: false },
    {
      name: 'named metrics: trial records',
      metrics: ['success_rate', 'accuracy', 'pass_at_k', 'agent_latency_p95', 'cost'],
      criteria: false,
      wholePages: false,
    },
  ];
  for (const variant of variants) {
    it(
      `gives the metrics of the whole read and of an uninterrupted run (${variant.name})`,
      async () => {
        const suite = suiteOf(variant.metrics, variant.criteria);
        const plain = await sqlite();
        const first = await interruptedRun(plain, suite, 600);
        expect(first.status).toBe('interrupted');
        const stored = await plain.countRecords(first.id);
        expect(stored).toBeGreaterThanOrEqual(600);
        expect(stored).toBeLessThan(TASKS * EPOCHS);

        const { store, reads } = counted(plain);
        const resumed = await runExperiment({
          suite,
          harness,
          agent: agent(),
          store,
          keepRecords: false,
          resume: first.id,
        });
        expect(reads.whole).toEqual([]);
        expect(reads.pages).toBeGreaterThanOrEqual(2);
        expect(reads.largestPage).toBeLessThanOrEqual(PAGE);
        expect(reads.wholePages > 0).toBe(variant.wholePages);
        expect(resumed.status).toBe('completed');
        expect(await plain.countRecords(resumed.id)).toBe(TASKS * EPOCHS);

        const whole = await wholeAggregate(plain, resumed.id, suite);
        expect(resumed.metrics).toEqual(whole.metrics);
        expect(resumed.scores).toEqual(whole.scores);
        expect(resumed.outcome).toEqual(whole.outcome);
        expect(resumed.violations).toEqual(whole.violations);

        const single = await runExperiment({
          suite,
          harness,
          agent: agent(),
          store: await sqlite(),
          keepRecords: false,
          settings: { epochs: EPOCHS, concurrency: 4, seed: 7 },
        });
        expect(clockless(resumed)).toEqual(clockless(single));
        expect(resumed.scores).toEqual(single.scores);
        expect(resumed.violations).toEqual(single.violations);
        await plain.close();
      },
      TEST_TIMEOUT_MS,
    );
  }

  it(
    '--retry-errors runs the scattered transient errors again and folds them among the kept trials',
    async () => {
      const suite = suiteOf([]);
      const plain = await sqlite();
      const first = await interruptedRun(plain, suite, TASKS * EPOCHS, true);
      expect(first.status).toBe('completed');
      const errored = await plain.countRecords(first.id, { outcome: 'error' });
      expect(errored).toBe(Math.ceil((TASKS - 3) / 7));

      const { store, reads } = counted(plain);
      const retried = await runExperiment({
        suite,
        harness,
        agent: agent(),
        store,
        keepRecords: false,
        retryErrors: first.id,
      });
      expect(reads.whole).toEqual([]);
      expect(reads.largestPage).toBeLessThanOrEqual(PAGE);
      expect(await plain.countRecords(first.id, { outcome: 'error' })).toBe(0);
      const whole = await wholeAggregate(plain, first.id, suite);
      expect(retried.metrics).toEqual(whole.metrics);
      expect(retried.scores).toEqual(whole.scores);
      await plain.close();
    },
    TEST_TIMEOUT_MS,
  );
});

describe("the queue's finish reads the records a page at a time", () => {
  it(
    'gives the metrics, scores and thresholds of a single uninterrupted run of the same records',
    async () => {
      const suite = suiteOf([]);
      const local = await sqlite();
      const single = await runExperiment({
        suite,
        harness,
        agent: agent(),
        store: local,
        keepRecords: false,
        settings: { epochs: EPOCHS, concurrency: 4, seed: 7 },
      });
      const records = (await local.listRecords(single.id, { limit: TASKS * EPOCHS })) as RunRecord[];
      await local.close();

      // The same trials, stored in PostgreSQL as workers would have committed them.
      const postgres = await PostgresStore.open(url, { schema: 'finish_paged' });
      const queued: Experiment = {
        ...single,
        status: 'running',
        records,
        metrics: [],
        scores: {},
        violations: [],
      };
      delete (queued as { finished_at?: string }).finished_at;
      delete (queued as { outcome?: string }).outcome;
      await postgres.createExperiment(queued);
      const { store, reads } = counted(postgres);
      expect(await finishIfComplete(store, suite, single.id)).toBe(true);
      expect(reads.whole).toEqual([]);
      expect(reads.pages).toBeGreaterThanOrEqual(2);
      expect(reads.largestPage).toBeLessThanOrEqual(PAGE);
      const finished = await postgres.getExperimentDocument(single.id);
      expect(finished?.status).toBe('completed');
      expect(finished?.metrics).toEqual(single.metrics);
      expect(finished?.scores).toEqual(single.scores);
      expect(finished?.outcome).toEqual(single.outcome);
      expect(finished?.violations).toEqual(single.violations);
      expect(single.violations.map((v) => v.metric)).toEqual(['success_rate']);
      // A second finisher finds it finished and reads nothing.
      expect(await finishIfComplete(store, suite, single.id)).toBe(false);
      await postgres.close();
    },
    TEST_TIMEOUT_MS,
  );
});
