import { describe, expect, it, vi } from 'vitest';

// Counts the reads of this process's own /proc/PID/stat.
const reads = vi.hoisted(() => ({ own: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    readFileSync: ((path: unknown, ...rest: unknown[]) => {
      if (path === `/proc/${process.pid}/stat`) reads.own += 1;
      return (fs.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof fs.readFileSync,
  };
});

const { processStart, stillRunning, thisProcess } = await import('../../../src/util/process-identity.ts');

describe('thisProcess', () => {
  it('names this process by pid, host and start time', () => {
    const here = thisProcess();
    expect(here.pid).toBe(process.pid);
    expect(here.started).toBe(processStart(process.pid) ?? '');
    expect(stillRunning(here.pid, here.started)).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    'reads its own start time once, not once per call (a queue worker asks every trial)',
    () => {
      thisProcess();
      const before = reads.own;
      for (let i = 0; i < 5; i++) thisProcess();
      expect(reads.own).toBe(before);
    },
  );
});
