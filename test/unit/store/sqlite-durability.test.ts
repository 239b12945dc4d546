import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/sqlite-store.ts';

const FIXTURE = fileURLToPath(new URL('../../fixtures/store/append-records.ts', import.meta.url));

let dir = '';
const children: ChildProcess[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-durability-'));
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Writer {
  readonly child: ChildProcess;
  /** run_ids whose appendRecord had resolved, as the child reported them. */
  readonly acknowledged: string[];
  /** Resolves when a stdout line satisfies `predicate`. */
  waitFor(predicate: (line: string) => boolean): Promise<void>;
  exited: Promise<NodeJS.Signals | null>;
}

function startWriter(path: string, count: number): Writer {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, path, String(count)], {
    shell: false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const acknowledged: string[] = [];
  const waiters: { predicate: (line: string) => boolean; resolve: () => void }[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('appended ')) acknowledged.push(line.slice('appended '.length));
      for (const waiter of waiters.splice(0)) {
        if (waiter.predicate(line)) waiter.resolve();
        else waiters.push(waiter);
      }
    }
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('close', (_code, signal) => resolve(signal)),
  );
  return {
    child,
    acknowledged,
    exited,
    waitFor: (predicate) =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ predicate, resolve });
        void exited.then(() => reject(new Error(`writer exited early: ${stderr}`)));
      }),
  };
}

describe('SqliteStore durability across processes', () => {
  it('keeps every record appended before the writer is SIGKILLed after finishing', async () => {
    const path = join(dir, 'finished', 'harnesseval.db');
    const writer = startWriter(path, 25);
    await writer.waitFor((line) => line === 'done');
    writer.child.kill('SIGKILL');
    expect(await writer.exited).toBe('SIGKILL');
    const store = new SqliteStore(path);
    const experiment = await store.getExperiment('durable');
    await store.close();
    // Tasks outside the suite sort by id, so compare as sets.
    expect(experiment?.records.map((r) => r.run_id).sort()).toEqual([...writer.acknowledged].sort());
    expect(writer.acknowledged).toHaveLength(25);
  });

  it('keeps every acknowledged record when the writer is SIGKILLed mid-stream', async () => {
    const path = join(dir, 'midstream', 'harnesseval.db');
    const writer = startWriter(path, 0);
    await writer.waitFor((line) => line === 'appended task-40#0');
    writer.child.kill('SIGKILL');
    await writer.exited;
    const acknowledged = [...writer.acknowledged];
    const store = new SqliteStore(path);
    const stored = (await store.getExperiment('durable'))?.records.map((r) => r.run_id) ?? [];
    await store.close();
    // Everything acknowledged is there; at most the one in flight when the signal landed is extra.
    const missing = acknowledged.filter((id) => !stored.includes(id));
    expect(missing).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(41);
    expect(stored.length - acknowledged.length).toBeLessThanOrEqual(1);
    expect(new Set(stored).size).toBe(stored.length);
  });

  it('lets another process read while one writes', async () => {
    const path = join(dir, 'concurrent', 'harnesseval.db');
    const writer = startWriter(path, 0);
    await writer.waitFor((line) => line === 'appended task-0#0');
    const reader = new SqliteStore(path, { busyTimeoutMs: 5000 });
    let previous = 0;
    const seen: number[] = [];
    try {
      while (previous < 60) {
        if (writer.child.exitCode !== null || writer.child.signalCode !== null)
          throw new Error('the writer stopped before 60 records');
        const [summary] = await reader.listExperiments();
        const experiment = await reader.getExperiment('durable');
        const records = experiment?.records.length ?? 0;
        expect(summary?.id).toBe('durable');
        // Each read sees a consistent snapshot that only grows.
        expect(records).toBeGreaterThanOrEqual(previous);
        previous = records;
        seen.push(records);
      }
    } finally {
      await reader.close();
    }
    writer.child.kill('SIGKILL');
    await writer.exited;
    // The reader observed the writer's progress, not one frozen snapshot.
    expect(new Set(seen).size).toBeGreaterThan(1);
  });
});
