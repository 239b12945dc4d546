import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteDatabase, SQLITE_DRIVER } from '../../src/store/sqlite-driver.ts';
import { BIN, cli, ROOT, startCli, waitFor } from '../helpers/run-cli.ts';
import { STACK_TRACE, scratch, writeBenchmark } from './helpers.ts';

// The store under pressure (another process holding its write lock, a read-only folder, a
// folder that cannot be made) and the CLI's edges: report destinations checked before the first
// trial, numbers too large to read, a harness that overruns its deadline synchronously, and
// the console's last lines.

const SLOW = join(ROOT, 'test/fixtures/run/slow.yaml');
const SQLITE = createRequire(import.meta.url).resolve(SQLITE_DRIVER);
let dir = '';
let remove = async () => {};
beforeAll(async () => {
  ({ dir, remove } = await scratch('store'));
});
afterAll(() => remove());

function records(db: string): { status: string; n: number } | undefined {
  try {
    const handle = openSqliteDatabase(db, { readonly: true, fileMustExist: true });
    try {
      const row = handle.prepare('SELECT status FROM experiments').get() as { status: string } | undefined;
      const { n } = handle.prepare('SELECT count(*) AS n FROM records').get() as { n: number };
      return row === undefined ? undefined : { status: row.status, n };
    } finally {
      handle.close();
    }
  } catch {
    return undefined;
  }
}

/** Another process that holds the store's write lock for `ms`, like `sqlite3` in a transaction. */
function holdWriteLock(db: string, ms: number): Promise<void> {
  const code = `const D = require(${JSON.stringify(SQLITE)}); const db = new D(${JSON.stringify(db)}); db.exec('BEGIN IMMEDIATE'); process.stdout.write('locked'); setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${ms});`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => child.stdout.once('data', () => resolve()));
}

describe('another process holding the write lock', () => {
  it('for 6 s (longer than the old 5 s abort): the run waits and completes', async () => {
    const db = join(dir, 'locked.db');
    const run = startCli(['run', SLOW, '-j', '2', '--store', db, '--no-progress'], dir);
    await waitFor(() => (records(db)?.n ?? 0) >= 4, 20_000);
    await holdWriteLock(db, 6000);
    const r = await run.done;
    expect(r.status, r.stderr).toBe(0);
    expect(records(db)).toEqual({ status: 'completed', n: 30 });
  }, 60_000);

  it('beyond the wait: the run stops like an interruption, never left running, and resumes', async () => {
    const db = join(dir, 'locked-long.db');
    const run = startCli(['run', SLOW, '-j', '2', '--store', db, '--no-progress'], dir, {
      HARNESSEVAL_STORE_BUSY_TIMEOUT: '1',
    });
    await waitFor(() => (records(db)?.n ?? 0) >= 4, 20_000);
    await holdWriteLock(db, 2500);
    const r = await run.done;
    expect(r.status).toBe(130);
    expect(r.stderr).toMatch(/the store refused a write: .*held the write lock for more than 1\.0 s/);
    expect(r.stderr).toMatch(/interrupted; resume with: harnesseval run .*--resume exp-/);
    expect(records(db)?.status).toBe('interrupted');
    const id = /--resume (\S+)/.exec(r.stderr)?.[1] ?? '';
    const resumed = await cli(['run', SLOW, '--resume', id, '--store', db, '--no-progress'], dir);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(records(db)).toEqual({ status: 'completed', n: 30 });
  }, 60_000);
});

describe('permissions', () => {
  const asNobody = (args: string[]) =>
    process.getuid?.() === 0
      ? spawnSync(
          'setpriv',
          ['--reuid', '65534', '--regid', '65534', '--clear-groups', process.execPath, BIN, ...args],
          {
            cwd: dir,
            encoding: 'utf8',
            env: { PATH: process.env['PATH'], NO_COLOR: '1' },
          },
        )
      : spawnSync(process.execPath, [BIN, ...args], {
          cwd: dir,
          encoding: 'utf8',
          env: { PATH: process.env['PATH'], NO_COLOR: '1' },
        });

  it('a store in a folder the reader may not write is listed, shown and reported', async () => {
    const ro = join(dir, 'ro');
    await mkdir(ro);
    const db = join(ro, 's.db');
    const made = await cli(['run', SLOW, '--filter-id', 'greet-0*', '--store', db, '--no-progress'], dir);
    expect(made.status, made.stderr).toBe(0);
    const id = /stored experiment (\S+)/.exec(made.stderr)?.[1] ?? '';
    await chmod(dir, 0o755);
    await chmod(ro, 0o555);
    await chmod(db, 0o444);
    try {
      for (const args of [
        ['runs', 'list', '--store', db],
        ['runs', 'show', id, '--store', db],
        ['report', id, '--store', db, '--format', 'csv'],
      ]) {
        const r = asNobody(args);
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        expect(r.stdout).toMatch(/greet-0|exp-/);
      }
    } finally {
      await chmod(ro, 0o755);
    }
  }, 60_000);

  it('a store folder that cannot be made is a located user error, not an "internal error"', async () => {
    const locked = join(dir, 'locked-dir');
    await mkdir(locked);
    await chmod(dir, 0o755);
    await chmod(locked, 0o555);
    try {
      const r = asNobody(['run', SLOW, '--store', join(locked, 'sub', 'new.db'), '--no-progress']);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/cannot open .*new\.db: .*(EACCES|permission denied).*check the permissions/);
      expect(r.stderr).not.toMatch(/internal error/);
    } finally {
      await chmod(locked, 0o755);
    }
  }, 30_000);
});

describe('CLI edges', () => {
  it('-o under /proc fails before the first trial, in seconds, with the destination named', async () => {
    const db = join(dir, 'proc.db');
    const started = Date.now();
    const r = await cli(['run', SLOW, '-o', '/proc/nope/r.md', '--store', db, '--no-progress'], dir);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/-o \/proc\/nope\/r\.md: cannot write a report there/);
    expect(records(db)).toBeUndefined(); // nothing ran, nothing was stored
  }, 30_000);

  it('1e400 is named as a number too large to read, once', async () => {
    const file = join(dir, 'e400.yaml');
    await writeFile(
      file,
      'version: "1.0"\nname: b\nthresholds:\n  success_rate: {minimum: 1e400}\ntests:\n  - {id: a, input: x}\n',
    );
    const r = await cli(['validate', file], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /e400\.yaml:4:\d+: thresholds\.success_rate\.minimum: Infinity is not a finite number \(a literal such as 1e400/,
    );
    expect(r.stderr).not.toMatch(/wrong type number/);
    expect(r.stderr.match(/thresholds\.success_rate\.minimum/g)).toHaveLength(1);
  });

  it('an in-process harness that busy-loops past its deadline is a timeout, not a pass', async () => {
    const suite = await writeBenchmark(dir, 'spin', [{ id: 'spin', input: 'spin:2500', expected: 'spun' }]);
    const r = await cli(
      ['run', suite, '--timeout', '1', '--no-store', '--no-progress', '--reporter', 'json'],
      dir,
    );
    expect(r.stderr).not.toMatch(STACK_TRACE);
    const record = (
      JSON.parse(r.stdout) as {
        records: { outcome: string; error?: string; output: { error_kind?: string } }[];
      }
    ).records[0];
    expect(record?.outcome).toBe('error');
    expect(record?.output.error_kind).toBe('timeout');
    expect(record?.error).toMatch(
      /past its 1 s deadline .*cannot be stopped on time; run it as a cli harness/,
    );
  }, 30_000);

  it('a report to stdout always ends its line before the store line (--no-progress)', async () => {
    // A reporter whose text has no final newline: the line after it must not run on.
    const plugin = join(dir, 'oneline-plugin.mjs');
    await writeFile(
      plugin,
      "export default { reporters: [{ name: 'oneline', description: 'one line', extensions: [], create: () => ({ specificationVersion: 'v1', name: 'oneline', report: async () => 'PASS without a newline' }) }] };\n",
    );
    for (const reporter of ['console', 'oneline']) {
      const r = await cli(
        [
          '--plugin',
          plugin,
          'run',
          SLOW,
          '--filter-id',
          'greet-0*',
          '--store',
          join(dir, 'lines.db'),
          '--no-progress',
          '--reporter',
          reporter,
        ],
        dir,
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.endsWith('\n'), reporter).toBe(true);
      expect(r.stderr).toMatch(/^stored experiment /m);
    }
  }, 30_000);
});
