import { describe, expect, it } from 'vitest';
import type { Experiment } from '../../../src/core/experiment.ts';
import type { Outcome, RunRecord } from '../../../src/core/run-record.ts';
import { finishedAt } from '../../../src/store/record-summary.ts';
import type { ExperimentStore, RecordQuery, RecordSummary } from '../../../src/store/types.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';

/** What a summary must say of a record: its own fields, read from the full record. */
function expectedSummary(r: RunRecord): RecordSummary {
  const errorKind = r.error_kind ?? r.output.error_kind;
  return {
    run_id: r.run_id,
    task_id: r.task_id,
    epoch: r.epoch,
    outcome: r.outcome,
    scores: r.scores,
    timestamp: r.timestamp,
    finished_at: finishedAt(r),
    duration_seconds: r.duration_seconds,
    cost_usd: r.cost_usd,
    ...(errorKind === undefined ? {} : { error_kind: errorKind }),
    pending_criteria: r.criteria.filter((c) => c.status === 'pending' && c.verification !== 'automated')
      .length,
  };
}

/**
 * What a trial record must hold of a record, written out field by field (src/store/trial-record.ts
 * says why each is kept): everything metrics and comparisons read, failure texts of failing
 * trials only, and nothing else.
 */
function expectedTrialRecord(r: RunRecord): RunRecord {
  const failing = r.outcome === 'fail' || r.outcome === 'error';
  return {
    schema_version: 1,
    run_id: r.run_id,
    task_id: r.task_id,
    epoch: r.epoch,
    attempts: r.attempts,
    harness_config: { name: '', version: '', agents: [] },
    timestamp: r.timestamp,
    duration_seconds: r.duration_seconds,
    cost_usd: r.cost_usd,
    outcome: r.outcome,
    ...(failing && r.error !== undefined ? { error: r.error } : {}),
    ...(r.error_kind === undefined ? {} : { error_kind: r.error_kind }),
    output: {
      output: null,
      latency: r.output.latency,
      tool_calls: [],
      usage: r.output.usage,
      metadata: {},
      ...(r.output.error_kind === undefined ? {} : { error_kind: r.output.error_kind }),
    },
    trace: {
      agent_calls: [],
      agent_invocations: [],
      prompts: [],
      human: [],
      circuit_breakers: [],
      malformed_events: [],
    },
    evaluations: r.evaluations.map((e) => ({
      evaluator: e.evaluator,
      score: e.score,
      passed: e.passed,
      explanation: failing && !e.passed ? e.explanation : '',
      details: {},
      negated: e.negated,
      ...(failing && !e.passed && e.error !== undefined ? { error: e.error } : {}),
    })),
    criteria: r.criteria.map((c) => ({
      id: c.id,
      verification: c.verification,
      status: c.status,
      score: c.score,
      explanation: failing && (c.status === 'failed' || c.status === 'error') ? c.explanation : '',
      grades: [],
      details: {},
    })),
    metrics: r.metrics,
    by_role: {},
    scores: r.scores,
    metadata: {},
  };
}

const OUTCOMES: readonly Outcome[] = ['pass', 'fail', 'error', 'pending'];

/**
 * A seeded experiment with every kind of trial the summaries distinguish: outcomes, scores or
 * none, costs or null, error kinds on the record or only on the output, pending rubric and
 * automated criteria, and records of a task the suite does not name (sorted last).
 */
function seededExperiment(): Experiment {
  const tasks = ['t-c', 't-a', 't-b', 't-d'];
  const records: RunRecord[] = [];
  let n = 0;
  for (const task of [...tasks, 'zz-unknown']) {
    for (let epoch = 2; epoch >= 0; epoch--) {
      n += 1;
      const outcome = OUTCOMES[n % OUTCOMES.length] ?? 'pass';
      records.push(
        makeRecord({
          task_id: task,
          epoch,
          outcome,
          duration_seconds: n * 0.125,
          // Started in reverse order of their end: only the end says what is new. One start is
          // not a time at all (its end is unknown: every "what is new" read includes it).
          timestamp: n === 7 ? 'not a time' : new Date(Date.UTC(2026, 0, 1, 0, 0, 60 - n)).toISOString(),
          cost_usd: n % 3 === 0 ? null : n / 1000,
          scores: n % 5 === 0 ? {} : { overall: (n % 7) / 7, functional: 0.5 },
          ...(outcome === 'error' && n % 2 === 0 ? { error_kind: 'environment' as const } : {}),
          output: {
            output: `answer ${n}`,
            latency: 0.1,
            ...(outcome === 'error' ? { error: 'boom', error_kind: 'timeout' as const } : {}),
          },
          // Failure texts (kept in trial records of failing trials only), retries, process metrics.
          ...(n % 2 === 0 ? { error: `error text ${n}` } : {}),
          ...(n % 4 === 1 ? { attempts: 2 } : {}),
          ...(n % 3 === 1
            ? { metrics: { prompts_total: n, tokens_in: 10 * n, first_pass_approval: true } }
            : {}),
          evaluations: [
            {
              evaluator: 'exact',
              score: n % 2,
              passed: n % 2 === 1,
              explanation: `why ${n}`,
              details: { n },
            },
            ...(n % 3 === 0
              ? [{ evaluator: 'judge', score: 0, passed: false, explanation: '', error: `judge down ${n}` }]
              : []),
          ],
          criteria: [
            {
              explanation: `criterion ${n}`,
              id: 'judge',
              verification: 'rubric',
              status: n % 2 ? 'pending' : 'passed',
              score: null,
            },
            { id: 'tests', verification: 'automated', status: 'pending', score: null },
            {
              id: 'human',
              verification: 'human',
              status: n % 3 ? 'pending' : 'failed',
              score: 0,
            },
          ],
        }),
      );
    }
  }
  return makeExperiment({
    id: 'exp-paged',
    status: 'running',
    suite: { id: 'paged-suite', tasks: tasks.map((id) => ({ id })) },
    records,
  });
}

/** The paged and summary reads, held to exactly what the full read returns. */
export function describePagedReads(open: () => Promise<ExperimentStore>): void {
  describe('paged and summary reads', () => {
    const seed = async () => {
      const store = await open();
      await store.createExperiment(seededExperiment());
      // One appended after creation, and one replaced: both must read back as getExperiment does.
      await store.appendRecord('exp-paged', makeRecord({ task_id: 't-a', epoch: 9, outcome: 'fail' }));
      await store.appendRecord('exp-paged', makeRecord({ task_id: 't-b', epoch: 1, outcome: 'pass' }));
      const full = await store.getExperiment('exp-paged');
      if (full === undefined) throw new Error('seeded experiment missing');
      return { store, full };
    };

    it('gives the document without records, equal to the full read', async () => {
      const { store, full } = await seed();
      const { records: _records, ...document } = full;
      expect(await store.getExperimentDocument('exp-paged')).toEqual(document);
      expect(await store.getExperimentDocument('nope')).toBeUndefined();
    });

    it('lists records and summaries in the full read order, for every filter and window', async () => {
      const { store, full } = await seed();
      expect(full.records.map((r) => r.task_id).slice(-3)).toEqual([
        'zz-unknown',
        'zz-unknown',
        'zz-unknown',
      ]);
      const queries: RecordQuery[] = [
        {},
        { offset: 0, limit: 5 },
        { offset: 5, limit: 5 },
        { offset: 14, limit: 100 },
        { offset: 100 },
        { limit: 0 },
        { task: 't-a' },
        { task: 'zz-unknown', offset: 1 },
        { task: 'missing' },
        ...OUTCOMES.map((outcome) => ({ outcome })),
        { task: 't-b', outcome: 'pass' as const, limit: 1 },
        { outcome: ['fail', 'error'] as const },
        { outcome: ['pass', 'fail'] as const, offset: 2, limit: 3 },
        { outcome: [] },
        { finishedAfter: '2026-01-01T00:00:45.000Z' },
        { finishedAfter: '2026-01-01T00:00:45.000Z', outcome: 'fail' as const, offset: 1, limit: 2 },
        { finishedAfter: '2100-01-01T00:00:00.000Z' },
      ];
      for (const query of queries) {
        const chosen = full.records.filter(
          (r) =>
            (query.task === undefined || r.task_id === query.task) &&
            (query.outcome === undefined ||
              (typeof query.outcome === 'string' ? [query.outcome] : query.outcome).includes(r.outcome)) &&
            (query.finishedAfter === undefined ||
              finishedAt(r) === null ||
              (finishedAt(r) ?? '') > query.finishedAfter),
        );
        const offset = query.offset ?? 0;
        const window = chosen.slice(offset, query.limit === undefined ? undefined : offset + query.limit);
        expect(await store.listRecords('exp-paged', query), JSON.stringify(query)).toEqual(window);
        expect(await store.listRecordSummaries('exp-paged', query), JSON.stringify(query)).toEqual(
          window.map(expectedSummary),
        );
        expect(await store.listTrialRecords('exp-paged', query), JSON.stringify(query)).toEqual(
          window.map(expectedTrialRecord),
        );
        expect(await store.countRecords('exp-paged', query), JSON.stringify(query)).toBe(chosen.length);
      }
    });

    it('hands every record over page by page, in the full read order, whole or as trial records', async () => {
      const { store, full } = await seed();
      const trials = await store.listTrialRecords('exp-paged');
      expect(trials).toHaveLength(full.records.length);
      for (const pageSize of [1, 4, full.records.length, 1000]) {
        for (const whole of [true, false]) {
          const pages: RunRecord[][] = [];
          await store.readRecordPages('exp-paged', (page) => void pages.push(page), { pageSize, whole });
          expect(pages.flat(), `pageSize ${pageSize}, whole ${whole}`).toEqual(whole ? full.records : trials);
          expect(pages.slice(0, -1).every((page) => page.length === pageSize)).toBe(true);
          expect(pages.at(-1)?.length).toBe(full.records.length - pageSize * (pages.length - 1));
        }
      }
      // The default is trial records, 1,000 a page.
      const pages: RunRecord[][] = [];
      await store.readRecordPages('exp-paged', (page) => void pages.push(page));
      expect(pages).toEqual([trials]);
    });

    it('reads only the records of the outcomes asked for, in the same order and pages', async () => {
      const { store, full } = await seed();
      const asked: readonly (readonly Outcome[])[] = [['fail', 'error'], ['pending'], ['pass'], [], OUTCOMES];
      for (const outcomes of asked) {
        for (const whole of [true, false]) {
          const pages: RunRecord[][] = [];
          await store.readRecordPages('exp-paged', (page) => void pages.push(page), {
            pageSize: 2,
            whole,
            outcomes,
          });
          const expected = full.records.filter((r) => outcomes.includes(r.outcome));
          expect(
            pages.flat().map((r) => r.run_id),
            `${outcomes.join(',')} whole ${whole}`,
          ).toEqual(expected.map((r) => r.run_id));
          expect(pages.flat()).toEqual(whole ? expected : expected.map(expectedTrialRecord));
          expect(pages.every((page) => page.length > 0 && page.length <= 2)).toBe(true);
        }
      }
      expect(full.records.some((r) => r.outcome === 'fail')).toBe(true);
    });

    it('awaits each page before reading the next, and gives a visitor failure back as it was', async () => {
      const { store, full } = await seed();
      const seen: string[] = [];
      await store.readRecordPages(
        'exp-paged',
        async (page) => {
          seen.push(`start ${page.length}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
          seen.push('end');
        },
        { pageSize: 10 },
      );
      const sizes = [10, full.records.length - 10];
      expect(seen).toEqual(sizes.flatMap((n) => [`start ${n}`, 'end']));
      const boom = new TypeError('visitor broke');
      let visits = 0;
      const failure = await store
        .readRecordPages(
          'exp-paged',
          () => {
            visits += 1;
            throw boom;
          },
          { pageSize: 3 },
        )
        .catch((error: unknown) => error);
      expect(failure).toBe(boom);
      expect(visits).toBe(1);
      // The store still reads after a visitor failed (no connection or cursor left behind).
      expect(await store.countRecords('exp-paged')).toBe(full.records.length);
    });

    it('reads nothing of an unknown experiment', async () => {
      const store = await open();
      let visits = 0;
      await store.readRecordPages('nope', () => {
        visits += 1;
      });
      expect(visits).toBe(0);
      expect(await store.listRecords('nope')).toEqual([]);
      expect(await store.listRecordSummaries('nope')).toEqual([]);
      expect(await store.listTrialRecords('nope')).toEqual([]);
      expect(await store.countRecords('nope')).toBe(0);
    });
  });
}
