import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import type { ChildProcessRecord, LeaseHolder } from '../../../src/store/run-bookkeeping.ts';
import type { ExperimentStore } from '../../../src/store/types.ts';
import { makeExperiment } from '../../helpers/experiments.ts';
import type { StoreFactory } from './contract.ts';

const holder = (pid: number, started = `t${pid}`): LeaseHolder => ({
  pid,
  host: 'host-a',
  started,
  acquired_at: '2026-12-01T10:00:00Z',
});

const child = (pid: number, owner = 100): ChildProcessRecord => ({
  pid,
  pgid: pid,
  started: `s${pid}`,
  tag: `tok.${pid}`,
  owner: { pid: owner, host: 'host-a', started: `t${owner}` },
});

async function notFound(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(HarnessEvalError.is(error) && error.code).toBe('not_found');
}

/**
 * The run bookkeeping every ExperimentStore backend must keep: one lease per experiment and the
 * child processes of its runs. Run it beside `describeStoreContract` for each backend.
 */
export function describeBookkeepingContract(name: string, factory: StoreFactory): void {
  describe(`ExperimentStore bookkeeping contract: ${name}`, () => {
    const opened: ExperimentStore[] = [];
    const open = async () => {
      const store = await factory();
      opened.push(store);
      await store.createExperiment(makeExperiment({ id: 'exp-a' }));
      await store.createExperiment(makeExperiment({ id: 'exp-b' }));
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it('gives a free lease to the first process and names the holder to the next', async () => {
      const store = await open();
      expect(await store.acquireLease('exp-a', holder(1))).toEqual(holder(1));
      expect(await store.acquireLease('exp-a', holder(2))).toEqual(holder(1));
      // The same process asking again keeps it; another experiment's lease is separate.
      expect(await store.acquireLease('exp-a', holder(1))).toEqual(holder(1));
      expect(await store.acquireLease('exp-b', holder(2))).toEqual(holder(2));
    });

    it('takes over only from exactly the holder named as replaced', async () => {
      const store = await open();
      await store.acquireLease('exp-a', holder(1));
      expect(await store.acquireLease('exp-a', holder(2), holder(3))).toEqual(holder(1));
      expect(await store.acquireLease('exp-a', holder(2), holder(1, 'another start'))).toEqual(holder(1));
      expect(await store.acquireLease('exp-a', holder(2), holder(1))).toEqual(holder(2));
    });

    it('releases only for the holder; a released lease is free again', async () => {
      const store = await open();
      await store.acquireLease('exp-a', holder(1));
      await store.releaseLease('exp-a', holder(2));
      expect(await store.acquireLease('exp-a', holder(2))).toEqual(holder(1));
      await store.releaseLease('exp-a', holder(1));
      expect(await store.acquireLease('exp-a', holder(2))).toEqual(holder(2));
      await store.releaseLease('exp-unknown', holder(1)); // nothing to release: no error
    });

    it('refuses a lease on an unknown experiment', async () => {
      const store = await open();
      await notFound(store.acquireLease('exp-unknown', holder(1)));
    });

    it('records, lists (oldest first, with the experiment) and forgets child processes', async () => {
      const store = await open();
      await store.recordChildProcess('exp-a', child(11));
      await store.recordChildProcess('exp-b', child(12, 200));
      await store.recordChildProcess('exp-a', child(13));
      expect(await store.listChildProcesses()).toEqual([
        { ...child(11), experiment_id: 'exp-a' },
        { ...child(12, 200), experiment_id: 'exp-b' },
        { ...child(13), experiment_id: 'exp-a' },
      ]);
      await store.forgetChildProcess('exp-a', 11);
      await store.forgetChildProcess('exp-a', 999); // unknown: ignored
      expect((await store.listChildProcesses()).map((c) => c.pid)).toEqual([12, 13]);
      // Recording a pid again replaces it, as the newest.
      await store.recordChildProcess('exp-b', { ...child(12, 200), tag: 'tok.new' });
      expect((await store.listChildProcesses()).map((c) => [c.pid, c.tag])).toEqual([
        [13, 'tok.13'],
        [12, 'tok.new'],
      ]);
    });

    it('refuses a child of an unknown experiment, and drops children and lease with their experiment', async () => {
      const store = await open();
      await notFound(store.recordChildProcess('exp-unknown', child(1)));
      await store.recordChildProcess('exp-a', child(11));
      await store.acquireLease('exp-a', holder(1));
      await store.deleteExperiment('exp-a');
      expect(await store.listChildProcesses()).toEqual([]);
      await store.createExperiment(makeExperiment({ id: 'exp-a' }));
      expect(await store.acquireLease('exp-a', holder(2))).toEqual(holder(2));
    });

    it('validates what it is given', async () => {
      const store = await open();
      await expect(store.recordChildProcess('exp-a', { ...child(1), pid: -1 })).rejects.toThrow();
      await expect(store.acquireLease('exp-a', { ...holder(1), pid: 0 })).rejects.toThrow();
    });
  });
}
