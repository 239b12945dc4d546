import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLITE_DRIVER } from '../../src/store/sqlite-driver.ts';
import { cli } from '../helpers/run-cli.ts';

// Runs on every Node.js of the CI matrix (.ci/run, .ci/node-versions). On Node 24 the store's old
// driver (better-sqlite3 12) aborted 7 of 10 `run`s at exit ("Assertion failed: (env) != nullptr"
// in RemoveEnvironmentCleanupHook, exit by SIGABRT); src/store/sqlite-driver.ts picks 13 there.
describe(`the SQLite store on Node ${process.version}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'he-node-'));
  const store = join(dir, 'store.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the driver built for this Node.js', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(SQLITE_DRIVER).toBe(major >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3');
  });

  it('runs, lists and reports through the built CLI without a native abort at exit', async () => {
    for (let i = 0; i < 5; i++) {
      const run = await cli([
        'run',
        'examples/hello-world/benchmark.yaml',
        '--store',
        store,
        '--no-progress',
      ]);
      expect(run.stderr).not.toMatch(/Assertion failed|Native stack trace/);
      expect({ status: run.status, signal: run.signal }).toEqual({ status: 0, signal: null });
      const list = await cli(['runs', 'list', '--store', store]);
      expect({ status: list.status, signal: list.signal }).toEqual({ status: 0, signal: null });
    }
    const list = await cli(['runs', 'list', '--store', store, '--format', 'json']);
    expect(JSON.parse(list.stdout)).toHaveLength(5);
  }, 120_000);
});
