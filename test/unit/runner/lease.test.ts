import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { endOrphans } from '../../../src/runner/child-records.ts';
import { cleanupStore } from '../../../src/runner/cleanup.ts';
import { leaseHolder, takeLease } from '../../../src/runner/lease.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { processStart } from '../../../src/util/process-identity.ts';
import { makeExperiment } from '../../helpers/experiments.ts';

/** A process that has exited: its pid and start time name nobody now. */
async function deadProcess(): Promise<{ pid: number; started: string }> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], { stdio: 'ignore' });
  const pid = child.pid ?? 0;
  const started = processStart(pid) ?? '';
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  return { pid, started };
}

async function storeWith(status: 'running' | 'completed' = 'running') {
  const store = new MemoryStore();
  await store.createExperiment(makeExperiment({ id: 'exp-a', status }));
  return store;
}

describe('takeLease', () => {
  it('takes a free lease, and again for the same process', async () => {
    const store = await storeWith();
    const first = await takeLease(store, 'exp-a');
    expect(first.pid).toBe(process.pid);
    expect((await takeLease(store, 'exp-a')).pid).toBe(process.pid);
  });

  it('refuses while another live process holds it, naming its pid', async () => {
    const store = await storeWith();
    const parent = { ...leaseHolder(), pid: process.ppid, started: processStart(process.ppid) ?? '' };
    await store.acquireLease('exp-a', parent);
    await expect(takeLease(store, 'exp-a')).rejects.toThrow(
      new RegExp(`being run by another harnesseval \\(pid ${process.ppid}, since`),
    );
  });

  it('takes over from a process that is gone', async () => {
    const store = await storeWith();
    const dead = await deadProcess();
    await store.acquireLease('exp-a', { ...leaseHolder(), ...dead });
    expect((await takeLease(store, 'exp-a')).pid).toBe(process.pid);
  });
});

describe('endOrphans and cleanupStore', () => {
  it('ends the recorded group of a run that is gone, and leaves a live run’s alone', async () => {
    const store = await storeWith();
    const dead = await deadProcess();
    const spawnGroup = () => spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const orphan = spawnGroup();
    const kept = spawnGroup();
    const record = (pid: number, owner: { pid: number; started: string }) =>
      store.recordChildProcess('exp-a', {
        pid,
        pgid: pid,
        started: processStart(pid) ?? '',
        tag: `none.${pid}`,
        owner: { ...owner, host: leaseHolder().host },
      });
    await record(orphan.pid ?? 0, dead);
    await record(kept.pid ?? 0, { pid: process.pid, started: processStart(process.pid) ?? '' });
    const exited = new Promise((resolve) => orphan.once('exit', resolve));
    const ended = await endOrphans(store);
    expect(ended.experiments.get('exp-a')).toEqual({ recorded: 1, killed: 1 });
    await exited;
    expect((await store.listChildProcesses()).map((c) => c.pid)).toEqual([kept.pid]);
    kept.kill('SIGKILL');
  });

  it('marks an experiment interrupted when the run holding it is gone; not when it lives', async () => {
    const store = await storeWith();
    await store.createExperiment(makeExperiment({ id: 'exp-live', status: 'running' }));
    const dead = await deadProcess();
    await store.acquireLease('exp-a', { ...leaseHolder(), ...dead });
    await store.acquireLease('exp-live', {
      ...leaseHolder(),
      pid: process.ppid,
      started: processStart(process.ppid) ?? '',
    });
    const report = await cleanupStore(store);
    expect(report.interrupted.map((e) => e.id)).toEqual(['exp-a']);
    expect((await store.getExperiment('exp-a'))?.status).toBe('interrupted');
    expect((await store.getExperiment('exp-live'))?.status).toBe('running');
  });
});
