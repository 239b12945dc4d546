import { describe, expect, it } from 'vitest';
import { liveSnapshot } from '../../../src/viewer/live.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';

describe('liveSnapshot', () => {
  it('counts outcomes against the plan and leaves errors and pending out of the running rate', () => {
    const snapshot = liveSnapshot(
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

  it('has no rate before a trial passes or fails, and says a finished run has nothing in flight', () => {
    const empty = liveSnapshot(makeExperiment({ status: 'running' }));
    expect(empty.fields).toMatchObject({
      done: '0',
      total: '3',
      rate: 'n/a',
      interval: '-',
      notes: 'nothing left out',
    });
    const done = liveSnapshot(makeExperiment({ records: [makeRecord()] }));
    expect(done.finished).toBe(true);
    expect(done.fields['in_flight']).toBe('none: the run has ended');
    const unlisted = liveSnapshot(makeExperiment({ status: 'running', suite: { id: 's', tasks: [] } }));
    expect(unlisted.total).toBeNull();
    expect(unlisted.fields['in_flight']).toContain('unknown');
  });
});
