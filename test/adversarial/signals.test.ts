import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteDatabase } from '../../src/store/sqlite-driver.ts';
import { cli, ROOT, startCli, waitFor } from '../helpers/run-cli.ts';
import { scratch, seeded, writeBenchmark } from './helpers.ts';

// Signals with hanging agents: whatever stops HarnessEval — Ctrl-C once or twice, SIGTERM twice,
// SIGKILL — no process it started may outlive it (at the latest once `runs cleanup` has run).
// The agents start `sleep MARK` children (one escapes its process group with setsid); MARK is
// unique per test, so `ps` counts exactly what a test left behind.

const HOSTILE_CLI = join(ROOT, 'test/fixtures/adversarial/hostile-cli.mjs');
const random = seeded(7);
let dir = '';
let remove = async () => {};
let mark = '';
beforeAll(async () => {
  ({ dir, remove } = await scratch('signals'));
});
afterEach(() => {
  // Never leave a test's processes to the next one, whatever failed: its own, by pid.
  for (const pid of leftoverPids()) process.kill(pid, 'SIGKILL');
});
afterAll(() => remove());

/** Pids of the processes whose command line is exactly `sleep MARK`. */
function leftoverPids(): number[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[2]?.trim() === `sleep ${mark}`)
    .map((m) => Number(m[1]));
}

function leftovers(): number {
  return leftoverPids().length;
}

async function hangingSuite(name: string): Promise<string> {
  mark = `7771.${Math.floor(random() * 1e9)}`;
  return writeBenchmark(
    dir,
    name,
    [
      { id: 'hang-1', input: 'hang' },
      { id: 'ignores-term', input: 'hang-ignore-term' },
      { id: 'escapes', input: 'escape' },
      { id: 'hang-2', input: 'hang' },
    ],
    { adapter: 'cli', command: process.execPath, args: [HOSTILE_CLI], env: { HOSTILE_MARK: mark } },
  );
}

function status(db: string): string | undefined {
  const handle = openSqliteDatabase(db, { readonly: true });
  try {
    return (handle.prepare('SELECT status FROM experiments').get() as { status: string } | undefined)?.status;
  } finally {
    handle.close();
  }
}

/** Starts a run of the hanging suite and waits until all four agents' sleeps run. */
async function startHanging(name: string, extra: string[] = []) {
  const suite = await hangingSuite(name);
  const db = join(dir, `${name}.db`);
  const run = startCli(
    ['run', suite, '-j', '4', '--timeout', '120', '--no-progress', '--store', db, ...extra],
    dir,
  );
  await waitFor(() => leftovers() === 4, 20_000);
  return { run, db };
}

const settle = () => waitFor(() => leftovers() === 0, 8_000).catch(() => undefined);

describe('signals with hanging agents leave 0 processes behind', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} twice: every process group ends, the experiment is interrupted, the resume command printed`, async () => {
      const { run, db } = await startHanging(`twice-${signal}`);
      run.child.kill(signal);
      await new Promise((resolve) => setTimeout(resolve, 300));
      run.child.kill(signal);
      const r = await run.done;
      await settle();
      expect(leftovers()).toBe(0);
      expect(r.status).toBe(130);
      expect(r.stderr).toMatch(/stopping now/);
      expect(r.stderr).toMatch(/interrupted; resume with: npx harnesseval run .*--resume exp-/);
      expect(status(db)).toBe('interrupted');
    }, 40_000);
  }

  it('SIGINT once: in-flight trials get their grace, then their groups (and the setsid escapee) end', async () => {
    const { run, db } = await startHanging('once');
    run.child.kill('SIGINT');
    const r = await run.done;
    await settle();
    expect(leftovers()).toBe(0);
    expect(r.status).toBe(130);
    expect(status(db)).toBe('interrupted');
  }, 40_000);

  it('SIGKILL: the watchdog ends every group and the escapee', async () => {
    const { run, db } = await startHanging('kill');
    run.child.kill('SIGKILL');
    await run.done;
    await settle();
    expect(leftovers()).toBe(0);
    expect(status(db)).toBe('running'); // nobody could say otherwise; cleanup does
    const cleanup = await cli(['runs', 'cleanup', '--store', db], dir);
    expect(cleanup.status, cleanup.stderr).toBe(0);
    expect(cleanup.stdout).toMatch(/marked interrupted/);
    expect(status(db)).toBe('interrupted');
  }, 40_000);

  it('SIGKILL of HarnessEval and its watchdog: runs cleanup ends what the store recorded', async () => {
    const { run, db } = await startHanging('kill-both');
    const pid = run.child.pid ?? 0;
    // The watchdog is HarnessEval's `node -e` child.
    const ps = spawnSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
    const watchdog = ps.stdout
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .find(([, ppid, , flag]) => Number(ppid) === pid && flag === '-e');
    expect(watchdog, 'no watchdog process').toBeDefined();
    process.kill(Number(watchdog?.[0]), 'SIGKILL');
    run.child.kill('SIGKILL');
    await run.done;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(leftovers()).toBe(4); // nothing ended them: this is what cleanup is for
    const cleanup = await cli(['runs', 'cleanup', '--store', db], dir);
    expect(cleanup.status, cleanup.stderr).toBe(0);
    expect(cleanup.stdout).toMatch(/recorded 4 process group\(s\); ended \d+ process\(es\) still running/);
    await settle();
    expect(leftovers()).toBe(0);
    expect(status(db)).toBe('interrupted');
  }, 40_000);

  it('--no-store: a double Ctrl-C stops with no resume command that could not work', async () => {
    const suite = await hangingSuite('no-store');
    const run = startCli(['run', suite, '-j', '4', '--no-progress', '--no-store'], dir);
    await waitFor(() => leftovers() === 4, 20_000);
    run.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    run.child.kill('SIGINT');
    const r = await run.done;
    await settle();
    expect(leftovers()).toBe(0);
    expect(r.status).toBe(130);
    expect(r.stderr).toMatch(/nothing was stored \(--no-store\), so there is nothing to resume/);
    expect(r.stderr).not.toMatch(/--resume/);
  }, 40_000);
});

describe('a harness that leaves a daemon behind', () => {
  it('a setsid grandchild of a finished trial is ended with it (found by its process tag)', async () => {
    mark = `7772.${Math.floor(random() * 1e9)}`;
    const suite = await writeBenchmark(dir, 'daemon', [{ id: 'daemon', input: 'escape-and-exit' }], {
      adapter: 'cli',
      command: process.execPath,
      args: [HOSTILE_CLI],
      env: { HOSTILE_MARK: mark },
    });
    const r = await cli(['run', suite, '--no-store', '--no-progress'], dir);
    expect(r.status, r.stderr).toBe(0);
    await settle();
    expect(leftovers()).toBe(0);
  }, 30_000);
});

describe('a second signal after a fast stop', () => {
  it('while the reports are written: still exit 130 with the resume command, never a bare exit 143', async () => {
    // 3,000 instant trials: the first SIGTERM stops the run at once; the second lands while the
    // HTML and JSON reports of the trials done are rendered (the old code had removed its handlers),
    // or, on a fast machine, after the last line while the process winds down (that met Node's
    // default until main.ts's late handler: exit 143 after "resume with").
    const tests = Array.from({ length: 3000 }, (_, i) => ({
      id: `t-${i}`,
      input: `x${i}`,
      expected: `x${i}`,
    }));
    const suite = await writeBenchmark(dir, 'fast', tests);
    const db = join(dir, 'fast.db');
    const out = (ext: string) => join(dir, `fast.${ext}`);
    const run = startCli(
      [
        'run',
        suite,
        '-j',
        '8',
        '--no-progress',
        '--store',
        db,
        '-o',
        out('html'),
        '-o',
        out('json'),
        '-o',
        out('md'),
      ],
      dir,
    );
    await waitFor(() => existsRecords(db) >= 800, 30_000);
    run.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    run.child.kill('SIGTERM');
    const r = await run.done;
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status).toBe(130);
    expect(r.stderr).toMatch(/resume with: npx harnesseval run .*--resume exp-/);
  }, 60_000);
});

describe('a signal after the last line', () => {
  it('never ends the process by that signal: it exits with the status the command decided', async () => {
    // From its first output on, `validate` gets a SIGTERM every millisecond until it is gone. Left
    // to wind down on its own, Node closed its signal handles before the process ended, and every
    // one of 20 such runs died of SIGTERM (exit 143) after printing its verdict.
    const file = join(ROOT, 'examples/hello-world/datasets/hello-world-v0.jsonl');
    for (let round = 0; round < 5; round++) {
      const run = startCli(['validate', file]);
      let timer: NodeJS.Timeout | undefined;
      run.child.stdout?.once('data', () => {
        timer = setInterval(() => run.child.kill('SIGTERM'), 1);
      });
      const r = await run.done.finally(() => clearInterval(timer));
      expect(r.signal, `round ${round}: ${r.stderr}`).toBeNull();
      expect([0, 130]).toContain(r.status);
      expect(r.stdout).toContain('hello-world-v0.jsonl: 25 cases');
    }
  }, 60_000);
});

function existsRecords(db: string): number {
  try {
    const handle = openSqliteDatabase(db, { readonly: true, fileMustExist: true });
    try {
      return (handle.prepare('SELECT count(*) AS n FROM records').get() as { n: number }).n;
    } finally {
      handle.close();
    }
  } catch {
    return 0;
  }
}
