import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paint } from '../../src/cli/io.ts';
import { compareExperiments } from '../../src/compare/index.ts';
import { comparisonRecords, trialRecordsSuffice } from '../../src/compare/record-needs.ts';
import type { Experiment } from '../../src/core/experiment.ts';
import type { Outcome, RunRecord } from '../../src/core/run-record.ts';
import { builtinMetricNames } from '../../src/metrics/catalog.ts';
import { renderShow, summarize } from '../../src/reporters/runs-view.ts';
import { mulberry32 } from '../../src/stats/bootstrap.ts';
import { PostgresStore } from '../../src/store/postgres-store.ts';
import { readStoredExperiment } from '../../src/store/read-experiment.ts';
import { openSqliteDatabase } from '../../src/store/sqlite-driver.ts';
import { SqliteStore } from '../../src/store/sqlite-store.ts';
import type { ExperimentStore } from '../../src/store/types.ts';
import { buildTimeline } from '../../src/timeline/timeline.ts';
import { compareScreen } from '../../src/viewer/pages/compare.ts';
import { timelineScreen } from '../../src/viewer/pages/timeline.ts';
import { makeExperiment, makeRecord } from '../helpers/experiments.ts';
import { adminQuery, createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../helpers/postgres.ts';

/**
 * `compare` reads trial records (store.listTrialRecords: records cut to what metrics and
 * comparisons read) instead of whole ones: on a seeded pair of experiments with every kind of
 * trial, the comparison of every built-in metric is the same from either read, in SQLite and in
 * PostgreSQL, and from rows stored before the trial fields existed.
 */

const TASKS = 40;
const EPOCHS = 2;

function seededExperiment(id: string, version: string, seed: number): Experiment {
  const next = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T;
  const tasks = Array.from({ length: TASKS }, (_, i) => ({
    id: `task-${String(i).padStart(2, '0')}`,
    cluster: `c${i % 7}`,
    domain: i % 2 ? 'code' : 'qa',
    weight: 1 + (i % 3),
  }));
  const records: RunRecord[] = [];
  for (const task of tasks) {
    for (let epoch = 0; epoch < EPOCHS; epoch++) {
      const outcome = pick<Outcome>(['pass', 'pass', 'fail', 'error', 'pending']);
      const failing = outcome === 'fail' || outcome === 'error';
      const score = Math.round(next() * 100) / 100;
      records.push(
        makeRecord({
          run_id: `${id}:${task.id}#${epoch}`,
          task_id: task.id,
          epoch,
          attempts: next() < 0.2 ? 2 : 1,
          outcome,
          duration_seconds: next() * 30,
          cost_usd: next() < 0.2 ? null : next() / 10,
          ...(outcome === 'error' ? { error: `crashed on ${task.id}` } : {}),
          ...(outcome === 'error' && next() < 0.3
            ? { error_kind: pick(['environment', 'infra'] as const) }
            : {}),
          output: {
            output: `answer ${next()}`,
            latency: next() * 20,
            usage: {
              tokens_in: Math.floor(next() * 5000),
              tokens_out: Math.floor(next() * 900),
              cached_tokens: 0,
              cost_usd: null,
              ...(next() < 0.1 ? { tokens_unknown: true } : {}),
              ...(next() < 0.1 ? { unpriced_calls: 2 } : {}),
            },
            ...(outcome === 'error'
              ? { error: 'adapter failed', error_kind: pick(['timeout', 'crash'] as const) }
              : {}),
          },
          trace: {
            agent_calls: [{ role: 'planner', tokens_in: 10, tokens_out: 5 }],
            prompts: next() < 0.3 ? [{ kind: 'unplanned' as const, text: 'continue?' }] : [],
          },
          evaluations: [
            {
              evaluator: 'exact',
              score: outcome === 'pass' ? 1 : 0,
              passed: outcome === 'pass',
              explanation: `exact ${failing ? 'differs' : 'equal'} ${next()}`,
              details: { diff: 'lots of detail' },
            },
            { evaluator: 'judge', score, passed: score >= 0.5, explanation: `judge says ${score}` },
          ],
          criteria: [
            {
              id: 'tests',
              verification: 'automated',
              status: failing ? 'failed' : 'passed',
              score: failing ? 0 : 1,
              explanation: 'ran the tests',
            },
            {
              id: 'style',
              verification: 'rubric',
              status: outcome === 'pending' ? 'pending' : 'passed',
              score: outcome === 'pending' ? null : score,
            },
          ],
          metrics: {
            prompts_total: Math.floor(next() * 4),
            prompts_unplanned: Math.floor(next() * 2),
            hitl_total: Math.floor(next() * 3),
            hitl_unplanned: Math.floor(next() * 2),
            first_pass_approval: next() < 0.5 ? null : next() < 0.5,
            circuit_breakers_fired: Math.floor(next() * 2),
            acceptance_criteria_passed: failing ? 0 : 1,
            acceptance_criteria_total: 1,
            human_minutes: next() * 5,
          },
          scores: outcome === 'pending' ? {} : { functional_completeness: failing ? 0 : 1, overall: score },
        }),
      );
    }
  }
  return makeExperiment({
    id,
    harness: { name: 'seeded', version, adapter: 'function' },
    suite: { id: 'seeded-suite', tasks },
    settings: { epochs: EPOCHS },
    records,
  });
}

/** Every built-in metric, computed from the records by the comparison itself. */
const METRICS = [
  ...builtinMetricNames.filter((name) => !['pass_at_k', 'pass_hat_k', 'evaluator_score'].includes(name)),
  'pass@2',
  'pass^2',
  'evaluator_score:judge',
];

async function bothReads(store: ExperimentStore, ids: readonly string[]) {
  const whole: Experiment[] = [];
  const cut: Experiment[] = [];
  for (const id of ids) {
    const experiment = await store.getExperiment(id);
    const document = await store.getExperimentDocument(id);
    if (experiment === undefined || document === undefined) throw new Error(`${id} missing`);
    whole.push(experiment);
    const trials = await store.listTrialRecords(id);
    cut.push({ ...document, records: trials });
    // The paged read (what resume and the queue's finish use) gives the same trial records, also
    // from rows stored before the trial fields.
    const pages: RunRecord[] = [];
    await store.readRecordPages(id, (page) => void pages.push(...page), { pageSize: 7 });
    expect(pages).toEqual(trials);
  }
  return { whole, cut };
}

function expectSameComparisons(whole: readonly Experiment[], cut: readonly Experiment[]): void {
  expect(cut.map((e) => e.records.length)).toEqual(whole.map((e) => e.records.length));
  // The cut really is a cut: no outputs or traces came back.
  expect(cut[0]?.records.every((r) => r.output.output === null && r.trace.agent_calls.length === 0)).toBe(
    true,
  );
  for (const options of [
    { metrics: METRICS },
    { metrics: METRICS, excludeFlaky: true, adjust: 'bh' as const },
    { metrics: ['success_rate', 'overall_score'], sequential: { margin: 0.05 } },
  ]) {
    const fromWhole = compareExperiments(whole, options);
    expect(compareExperiments(cut, options)).toEqual(fromWhole);
    // It compared something: paired tests and flipped tasks with their explanations.
    expect(fromWhole.metrics.some((m) => m.deltas[0]?.paired !== null)).toBe(true);
  }
  const { pairs } = compareExperiments(cut, { metrics: METRICS });
  const flips = [...(pairs[0]?.regressions ?? []), ...(pairs[0]?.improvements ?? [])];
  expect(flips.length).toBeGreaterThan(0);
  expect(flips.every((f) => f.explanation !== '')).toBe(true);
}

const pair = [seededExperiment('exp-base', '1.0.0', 7), seededExperiment('exp-cand', '1.1.0', 8)];

describe('compare from trial records', () => {
  let dir = '';
  let url = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'harnesseval-trial-'));
    url = await createTestDatabase();
  }, POSTGRES_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('knows when trial records suffice: built-in metrics and metrics it cannot compute', () => {
    expect(trialRecordsSuffice(METRICS)).toBe(true);
    expect(trialRecordsSuffice(['a_plugin_metric_nobody_registered'])).toBe(true);
  });

  it('gives the same comparison as whole records in SQLite, also for rows stored before', async () => {
    const path = join(dir, 'pair.db');
    const store = new SqliteStore(path);
    let cut: Experiment[];
    try {
      for (const e of pair) await store.createExperiment(e);
      const read = await bothReads(store, ['exp-base', 'exp-cand']);
      expectSameComparisons(read.whole, read.cut);
      cut = read.cut;
    } finally {
      await store.close();
    }
    // Rows written before the trial fields (no summary, or the viewer's fields only).
    const raw = openSqliteDatabase(path);
    raw.exec(
      "UPDATE records SET summary = NULL WHERE epoch = 0; UPDATE records SET summary = json_remove(summary, '$.trial') WHERE epoch = 1;",
    );
    raw.close();
    const reopened = new SqliteStore(path, { readonly: true });
    try {
      expect((await bothReads(reopened, ['exp-base', 'exp-cand'])).cut).toEqual(cut);
    } finally {
      await reopened.close();
    }
  });

  it('gives the same comparison as whole records in PostgreSQL, also for rows stored before', async () => {
    const store = await PostgresStore.open(url, { schema: 'trial_pair' });
    try {
      for (const e of pair) await store.createExperiment(e);
      const { whole, cut } = await bothReads(store, ['exp-base', 'exp-cand']);
      expectSameComparisons(whole, cut);
      await adminQuery(
        "UPDATE trial_pair.records SET summary = NULL WHERE epoch = 0; UPDATE trial_pair.records SET summary = (summary::jsonb - 'trial')::text WHERE epoch = 1;",
        new URL(url).pathname.slice(1),
      );
      const old = await bothReads(store, ['exp-base', 'exp-cand']);
      expect(old.cut).toEqual(cut);
    } finally {
      await store.close();
    }
  });
});

/** The store, counting the whole-record reads (`getExperiment`) and the trial-record reads. */
function counting(store: ExperimentStore): {
  store: ExperimentStore;
  whole: () => number;
  trial: () => number;
} {
  let whole = 0;
  let trial = 0;
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'getExperiment') whole++;
      if (key === 'listTrialRecords') trial++;
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: counted, whole: () => whole, trial: () => trial };
}

describe('timeline and the viewer read trial records too', () => {
  let dir = '';
  let store: SqliteStore;
  const lineage = [pair[0]!, pair[1]!, seededExperiment('exp-next', '1.2.0', 9)].map((e) => ({
    ...e,
    status: 'completed' as const,
  }));
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'harnesseval-trial-views-'));
    store = new SqliteStore(join(dir, 'lineage.db'));
    for (const e of lineage) await store.createExperiment(e);
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads an experiment whole or as trial records, as the choice says', async () => {
    const plugin = { trial: (names: readonly string[]) => !names.includes('needs_whole') };
    expect((await readStoredExperiment(store, 'exp-base', plugin))?.records[0]?.output.output).toBeNull();
    const whole = await readStoredExperiment(store, 'exp-base', { trial: () => false });
    expect(whole?.records[0]?.output.output).toEqual(expect.any(String));
    expect(await readStoredExperiment(store, 'exp-base')).toEqual(whole);
    expect(await readStoredExperiment(store, 'no-such-experiment', plugin)).toBeUndefined();
    expect(await readStoredExperiment(store, 'no-such-experiment')).toBeUndefined();
    // A metric the comparison needs whole records for (a plugin's) reads them whole.
    const registry = { create: () => ({ name: 'mine' }) } as never;
    const cut = comparisonRecords(['mine'], registry);
    expect(cut.trial([])).toBe(false);
  });

  it('builds the same timeline from trial records as from whole ones', async () => {
    const whole: Experiment[] = [];
    const cut: Experiment[] = [];
    for (const e of lineage) {
      whole.push((await store.getExperiment(e.id))!);
      cut.push((await readStoredExperiment(store, e.id, comparisonRecords()))!);
    }
    expect(cut[0]?.records.every((r) => r.output.output === null)).toBe(true);
    for (const options of [
      {},
      { perVersion: 'pooled' as const, adjust: 'bh' as const },
      { metrics: METRICS },
    ]) {
      const fromWhole = buildTimeline(whole, options);
      expect(buildTimeline(cut, options)).toEqual(fromWhole);
      expect(fromWhole.points).toHaveLength(3);
    }
  });

  it('`runs show` gives the same summary from trial records as from whole ones', async () => {
    for (const e of lineage) {
      const whole = (await store.getExperiment(e.id))!;
      const cut = (await readStoredExperiment(store, e.id, { trial: () => true }))!;
      expect(cut.records.every((r) => r.output.output === null)).toBe(true);
      expect(summarize(cut)).toEqual(summarize(whole));
      expect(renderShow(cut, paint(false))).toBe(renderShow(whole, paint(false)));
      expect(summarize(whole).outcomes.error).toBeGreaterThan(0);
    }
  });

  it("the viewer's compare and timeline pages read no whole experiment", async () => {
    const c = counting(store);
    const page = await compareScreen({ store: c.store }, ['exp-base', 'exp-cand'], new URLSearchParams());
    expect(page).toContain('exp-cand');
    const timeline = await timelineScreen({ store: c.store }, 'seeded', 'seeded-suite');
    expect(timeline).toContain('1.2.0');
    expect(c.trial()).toBe(2 + lineage.length);
    expect(c.whole()).toBe(0);
  });
});
