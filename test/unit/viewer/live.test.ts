import { describe, expect, it } from 'vitest';
import type { Experiment } from '../../../src/core/experiment.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { type LiveExperiment, liveSnapshot as snapshotOf } from '../../../src/viewer/live.ts';
import { LATE_WRITE_MS, LiveRecords } from '../../../src/viewer/live-records.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';

/** The experiment as the live screen reads it from a store: its document and its summaries. */
async function stored(experiment: Experiment): Promise<LiveExperiment> {
  const store = new MemoryStore();
  await store.createExperiment(experiment);
  const document = await store.getExperimentDocument(experiment.id);
  if (document === undefined) throw new Error('not stored');
  return { ...document, records: await store.listRecordSummaries(experiment.id) };
}
const liveSnapshot = async (experiment: Experiment) => snapshotOf(await stored(experiment));

describe('liveSnapshot', () => {
  it('counts outcomes against the plan and leaves errors and pending out of the running rate', async () => {
    const snapshot = await liveSnapshot(
      makeExperiment({
        status: 'running',
        settings: { epochs: 2, concurrency: 3 },
        records: [
          makeRecord({ task_id: 'alpha', timestamp: '2026-01-01T00:00:01Z' }),
          makeRecord({ task_id: 'alpha', epoch: 1, outcome: 'fail', timestamp: '2026-01-01T00:00:03Z' }),
          makeRecord({ task_id: 'bravo', outcome: 'error', timestamp: '2026-01-01T00:00:02Z' }),
          makeRecord({ task_id: 'bravo', epoch: 1, outcome: 'pending' }),
        ],
      }),
    );
    expect(snapshot).toMatchObject({ total: 6, done: 4, finished: false });
    expect(snapshot.fields).toMatchObject({
      done: '4',
      total: '6',
      pass: '1',
      fail: '1',
      error: '1',
      pending: '1',
      rate: '50.0%',
      n: '2',
      notes: '1 errored left out; 1 pending a grade left out',
    });
    // Wilson 1 of 2: [9.5%, 90.5%].
    expect(snapshot.fields['interval']).toBe('[9.5%, 90.5%]');
    expect(snapshot.fields['in_flight']).toContain('2 not finished yet; at most 2 of them running now');
    expect(snapshot.latest.map((t) => t.text)[0]).toBe('alpha #1: fail in 0.3 s');
  });

  it('has no rate before a trial passes or fails, and says a finished run has nothing in flight', async () => {
    const empty = await liveSnapshot(makeExperiment({ status: 'running' }));
    expect(empty.fields).toMatchObject({
      done: '0',
      total: '3',
      rate: 'n/a',
      interval: '-',
      notes: 'nothing left out',
    });
    const done = await liveSnapshot(makeExperiment({ records: [makeRecord()] }));
    expect(done.finished).toBe(true);
    expect(done.fields['in_flight']).toBe('none: the run has ended');
    const unlisted = await liveSnapshot(makeExperiment({ status: 'running', suite: { id: 's', tasks: [] } }));
    expect(unlisted.total).toBeNull();
    expect(unlisted.fields['in_flight']).toContain('unknown');
  });
});

describe('LiveRecords', () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();
  const trial = (task: string, start: number, extra: Parameters<typeof makeRecord>[0] = {}) =>
    makeRecord({ task_id: task, timestamp: at(start), duration_seconds: 1, ...extra });

  it('reads only what finished since the last read, and replaces a trial read again', async () => {
    const store = new MemoryStore();
    await store.createExperiment(makeExperiment({ status: 'running', records: [trial('alpha', 100)] }));
    const live = new LiveRecords(store, 'exp-0001');
    expect((await live.read()).map((s) => s.task_id)).toEqual(['alpha']);
    await store.appendRecord('exp-0001', trial('bravo', 200));
    await store.appendRecord('exp-0001', trial('alpha', 210, { outcome: 'fail' }));
    const second = await live.read();
    expect(second.map((s) => [s.task_id, s.outcome])).toEqual([
      ['alpha', 'fail'],
      ['bravo', 'pass'],
    ]);
    expect(live.wholeReads).toBe(1);
    // Nothing new: still the same, still no whole read.
    expect(await live.read()).toEqual(second);
    expect(live.wholeReads).toBe(1);
  });

  it('a retried trial (a new run id for the same task and epoch) replaces the first, and a missed one is still noticed', async () => {
    const store = new MemoryStore();
    await store.createExperiment(
      makeExperiment({ status: 'running', records: [trial('alpha', 100, { run_id: 'run-1' })] }),
    );
    const live = new LiveRecords(store, 'exp-0001');
    await live.read();
    await store.appendRecord('exp-0001', trial('alpha', 200, { run_id: 'run-2', outcome: 'fail' }));
    expect((await live.read()).map((s) => [s.run_id, s.outcome])).toEqual([['run-2', 'fail']]);
    // Stored late and long ended: only the count can tell, and the stale first run must not hide it.
    await store.appendRecord('exp-0001', trial('bravo', 10));
    expect((await live.read()).map((s) => s.task_id)).toEqual(['alpha', 'bravo']);
  });

  it('reads them all again when a trial stored late ended before what it asks for', async () => {
    const store = new MemoryStore();
    await store.createExperiment(makeExperiment({ status: 'running', records: [trial('alpha', 1000)] }));
    const live = new LiveRecords(store, 'exp-0001');
    await live.read();
    // Ended within the window: found by the "what is new" read.
    await store.appendRecord('exp-0001', trial('bravo', 1000 - LATE_WRITE_MS / 1000 + 5));
    expect((await live.read()).map((s) => s.task_id)).toEqual(['alpha', 'bravo']);
    expect(live.wholeReads).toBe(1);
    // Ended long before it: the count tells, and everything is read again.
    await store.appendRecord('exp-0001', trial('charlie', 10));
    expect((await live.read()).map((s) => s.task_id)).toEqual(['alpha', 'bravo', 'charlie']);
    expect(live.wholeReads).toBe(2);
    expect((await live.read({ whole: true })).length).toBe(3);
    expect(live.wholeReads).toBe(3);
  });
});
