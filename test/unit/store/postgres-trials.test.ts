import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../../src/store/postgres-store.ts';
import { makeExperiment, makeMetric, makeRecord } from '../../helpers/experiments.ts';
import { adminQuery, createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../../helpers/postgres.ts';
import { waitFor } from '../../helpers/run-cli.ts';
import { rejection } from './contract.ts';

/** What the queue and the workers will lean on: one record per trial, commit once, finish once. */

let url = '';
let count = 0;
const opened: PostgresStore[] = [];
beforeAll(async () => {
  url = await createTestDatabase();
}, POSTGRES_SETUP_TIMEOUT_MS);
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

async function open(schema = `trials_${++count}`): Promise<PostgresStore> {
  const store = await PostgresStore.open(url, { schema, env: {} });
  opened.push(store);
  return store;
}

describe('one record per trial (experiment, task, epoch)', () => {
  it('refuses a second record of a trial under another run_id and keeps the first', async () => {
    const store = await open();
    await store.createExperiment(makeExperiment());
    await store.appendRecord('exp-0001', makeRecord({ run_id: 'first' }));
    const error = await rejection(store.appendRecord('exp-0001', makeRecord({ run_id: 'second' })));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('task alpha epoch 0');
    const records = (await store.getExperiment('exp-0001'))?.records;
    expect(records?.map((r) => r.run_id)).toEqual(['first']);
  });

  it('refuses an experiment holding two records of one trial, naming both run_ids, and stores nothing', async () => {
    const store = await open();
    const experiment = makeExperiment({
      records: [makeRecord({ run_id: 'a' }), makeRecord({ run_id: 'b', outcome: 'fail' })],
    });
    const error = await rejection(store.createExperiment(experiment));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('run_ids a and b');
    expect(await store.listExperiments()).toEqual([]);
  });

  it('stores an experiment of several thousand records in batches and reads them back in order', async () => {
    const store = await open();
    const tasks = Array.from({ length: 1250 }, (_, i) => ({ id: `t${String(i).padStart(4, '0')}` }));
    const base = makeExperiment({ suite: { id: 'big', tasks: [...tasks].reverse() } });
    const records = tasks.flatMap((task) => [0, 1].map((epoch) => makeRecord({ task_id: task.id, epoch })));
    await store.createExperiment({ ...base, records });
    const got = await store.getExperiment(base.id);
    expect(got?.records).toHaveLength(2500);
    // Suite order is the reversed task list, then epoch.
    expect(got?.records.slice(0, 3).map((r) => r.run_id)).toEqual(['t1249#0', 't1249#1', 't1248#0']);
    expect((await store.listExperiments())[0]?.records).toBe(2500);
  });
});

describe('appendRecord commits the trials that finish together in one statement', () => {
  it('stores every record of a burst, and fails only the one that breaks a key', async () => {
    const store = await open();
    const tasks = Array.from({ length: 40 }, (_, i) => ({ id: `t${String(i).padStart(2, '0')}` }));
    await store.createExperiment(makeExperiment({ status: 'running', suite: { id: 's', tasks } }));
    await store.appendRecord('exp-0001', makeRecord({ task_id: 't05', run_id: 'taken' }));
    const burst = tasks.map((task) => store.appendRecord('exp-0001', makeRecord({ task_id: task.id })));
    // Same trial as t05's record under another run_id: refused alone, the burst is not.
    const clash = store.appendRecord('exp-0001', makeRecord({ task_id: 't07', run_id: 'taken' }));
    const replaced = store.appendRecord('exp-0001', makeRecord({ task_id: 't09', outcome: 'fail' }));
    const results = await Promise.allSettled([...burst, clash, replaced]);
    const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
    // t05's own record (run_id t05#0) meets "taken" on the same trial; the clash meets "taken" by run_id.
    expect(failed).toEqual([5, 40]);
    const records = (await store.getExperiment('exp-0001'))?.records ?? [];
    expect(records).toHaveLength(40);
    expect(records.find((r) => r.task_id === 't09')?.outcome).toBe('fail');
    expect(records.find((r) => r.task_id === 't05')?.run_id).toBe('taken');
  });
});

describe('appendRecordOnce', () => {
  it('stores the first record of a trial and ignores a late duplicate', async () => {
    const store = await open();
    await store.createExperiment(makeExperiment({ status: 'running' }));
    expect(await store.appendRecordOnce('exp-0001', makeRecord({ outcome: 'pass' }))).toBe(true);
    expect(await store.appendRecordOnce('exp-0001', makeRecord({ outcome: 'fail', attempts: 2 }))).toBe(
      false,
    );
    const records = (await store.getExperiment('exp-0001'))?.records;
    expect(records).toHaveLength(1);
    expect(records?.[0]).toMatchObject({ outcome: 'pass', attempts: 1 });
  });

  it('fails with not_found for an unknown experiment, and refuses a run_id another trial holds', async () => {
    const store = await open();
    expect((await rejection(store.appendRecordOnce('ghost', makeRecord()))).code).toBe('not_found');
    await store.createExperiment(makeExperiment());
    await store.appendRecordOnce('exp-0001', makeRecord({ run_id: 'shared' }));
    const error = await rejection(
      store.appendRecordOnce('exp-0001', makeRecord({ run_id: 'shared', task_id: 'bravo' })),
    );
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('run_id shared');
  });

  it('lets two stores (two workers) commit the same trial at once: one wins, one record', async () => {
    const schema = `trials_${++count}`;
    const [a, b] = [await open(schema), await open(schema)];
    await a.createExperiment(makeExperiment({ status: 'running' }));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? a : b).appendRecordOnce('exp-0001', makeRecord({ metadata: { worker: i } })),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await b.getExperiment('exp-0001'))?.records).toHaveLength(1);
  });
});

describe('updateExperimentLocked', () => {
  it('runs racing finishers one at a time: the first finishes, the second sees it finished', async () => {
    const schema = `trials_${++count}`;
    const [a, b] = [await open(schema), await open(schema)];
    await a.createExperiment(makeExperiment({ status: 'running', finished_at: undefined }));
    const seen: string[] = [];
    let entered!: () => void;
    const firstHoldsLock = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const mayFinish = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = a.updateExperimentLocked('exp-0001', async (experiment) => {
      seen.push(`a:${experiment.status}`);
      entered();
      await mayFinish;
      return { status: 'completed', finished_at: '2026-01-01T00:05:00.000Z', scores: { overall: 1 } };
    });
    await firstHoldsLock;
    const second = b.updateExperimentLocked('exp-0001', (experiment) => {
      seen.push(`b:${experiment.status}`);
      return experiment.status === 'running' ? { status: 'completed' } : undefined;
    });
    // The server shows b waiting for a's row lock; only then may a commit.
    await waitFor(async () => {
      const { rows } = await adminQuery(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%'",
        new URL(url).pathname.slice(1),
      );
      return (rows[0] as { n: number }).n === 1;
    }, 10_000);
    expect(seen).toEqual(['a:running']);
    release();
    expect(await first).toBe(true);
    expect(await second).toBe(false);
    expect(seen).toEqual(['a:running', 'b:completed']);
    expect(await a.getExperiment('exp-0001')).toMatchObject({
      status: 'completed',
      scores: { overall: 1 },
    });
  });

  it('validates the patch and leaves the experiment as it was when it is bad', async () => {
    const store = await open();
    await store.createExperiment(makeExperiment({ status: 'running' }));
    const error = await rejection(
      store.updateExperimentLocked('exp-0001', () => ({
        status: 'completed',
        metrics: [{ ...makeMetric('accuracy', 0.5), n: -3 }],
      })),
    );
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('metrics[0].n');
    expect((await store.getExperiment('exp-0001'))?.status).toBe('running');
    expect((await rejection(store.updateExperimentLocked('ghost', () => undefined))).code).toBe('not_found');
  });
});
