import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { StoredTrials } from '../../../src/runner/stored-trials.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';

const transient = (task: string, epoch: number, runId = `${task}#${epoch}`) =>
  makeRecord({
    run_id: runId,
    task_id: task,
    epoch,
    outcome: 'error',
    output: { output: null, error: 'HTTP 503', error_kind: 'transient' },
  });
const aborted = (task: string, epoch: number) =>
  makeRecord({
    task_id: task,
    epoch,
    outcome: 'error',
    output: { output: null, error: 'interrupted', error_kind: 'aborted' },
  });

async function storeWith(records: RunRecord[]) {
  const store = new MemoryStore();
  await store.createExperiment(
    makeExperiment({ id: 'exp-s', suite: { id: 's', tasks: [{ id: 'a' }, { id: 'b' }] }, records }),
  );
  return store;
}

const plan = { taskIds: ['a', 'b'], epochs: 2 };

describe('StoredTrials', () => {
  it('resume: finished trials are kept, aborted and missing ones run, outcomes are counted', async () => {
    const store = await storeWith([
      makeRecord({ task_id: 'a', epoch: 0 }),
      makeRecord({ task_id: 'a', epoch: 1, outcome: 'fail' }),
      aborted('b', 0),
      transient('b', 1),
    ]);
    const stored = await StoredTrials.read(store, 'exp-s', { ...plan, mode: 'resume' });
    expect(stored.counts).toEqual({ kept: 3, passed: 1, failed: 1, errored: 1, pending: 0 });
    expect(stored.irregular).toBe(0);
    expect([stored.runs(0, 0), stored.runs(0, 1), stored.runs(1, 0), stored.runs(1, 1)]).toEqual([
      false,
      false,
      true,
      false,
    ]);
    expect([...stored.keptTrials()]).toEqual([
      { taskId: 'a', epoch: 0 },
      { taskId: 'a', epoch: 1 },
      { taskId: 'b', epoch: 1 },
    ]);
    const read: string[] = [];
    await stored.readKept(store, 'exp-s', { whole: false, once: true }, (r) => read.push(r.run_id));
    expect(read).toEqual(['a#0', 'a#1', 'b#1']);
  });

  it('--retry-errors: only the transient errors run again; a kept record of the same trial outweighs one', async () => {
    const store = await storeWith([
      makeRecord({ task_id: 'a', epoch: 0 }),
      transient('a', 1),
      transient('b', 0, 'b#0-first'),
      makeRecord({ run_id: 'b#0-second', task_id: 'b', epoch: 0 }),
    ]);
    const stored = await StoredTrials.read(store, 'exp-s', { ...plan, mode: 'retry' });
    expect(stored.counts.kept).toBe(2);
    expect(stored.irregular).toBe(0);
    // a#1 errored: it runs; b#0 has a kept record; b#1 is missing, which is resume's job, not retry's.
    expect([stored.runs(0, 0), stored.runs(0, 1), stored.runs(1, 0), stored.runs(1, 1)]).toEqual([
      false,
      true,
      false,
      false,
    ]);
  });

  it('counts records outside the plan and repeated trials as irregular (the run keeps its records)', async () => {
    const store = await storeWith([
      makeRecord({ task_id: 'a', epoch: 0 }),
      makeRecord({ run_id: 'a#0-again', task_id: 'a', epoch: 0 }),
      makeRecord({ task_id: 'a', epoch: 5 }),
      makeRecord({ task_id: 'gone', epoch: 0 }),
    ]);
    const stored = await StoredTrials.read(store, 'exp-s', { ...plan, mode: 'resume' });
    expect(stored.counts.kept).toBe(4);
    expect(stored.irregular).toBe(3);
    // Every kept record is read back for a run that keeps them; once per planned trial for a fold.
    const all: string[] = [];
    await stored.readKept(store, 'exp-s', { whole: true, once: false }, (r) => all.push(r.run_id));
    expect(all.sort()).toEqual(['a#0', 'a#0-again', 'a#5', 'gone#0']);
    const once: string[] = [];
    await stored.readKept(store, 'exp-s', { whole: true, once: true }, (r) => once.push(r.run_id));
    expect(once).toHaveLength(1);
  });

  it('reads nothing again when nothing is kept', async () => {
    const stored = StoredTrials.none(['a'], 3);
    expect([stored.runs(0, 0), stored.runs(0, 2)]).toEqual([true, true]);
    let visits = 0;
    await stored.readKept(new MemoryStore(), 'exp-none', { whole: true, once: false }, () => {
      visits += 1;
    });
    expect(visits).toBe(0);
  });
});
