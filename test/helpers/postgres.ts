import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type RunningCluster, startCluster, writeAtomically } from './postgres-cluster.ts';

/**
 * A real PostgreSQL for a test file. The first file that asks starts the run's cluster (the
 * others wait for it); each call makes a new, empty database on it. The cluster stops when the
 * test run ends (test/setup/postgres.ts). No server installed: the call fails saying what to
 * install — PostgreSQL tests never skip silently.
 *
 * `HARNESSEVAL_TEST_POSTGRES_URL` points the tests at a server of your own instead (a role that
 * may create databases).
 */

/** For a beforeAll that creates a database: the first one may wait for the cluster to start. */
export const POSTGRES_SETUP_TIMEOUT_MS = 120_000;

let cluster: Promise<RunningCluster> | undefined;

async function readyCluster(root: string): Promise<RunningCluster> {
  const ready = join(root, 'ready.json');
  const failed = join(root, 'failed.txt');
  let starter = false;
  try {
    await mkdir(join(root, 'starting'));
    starter = true;
  } catch {
    // Another test file is starting it.
  }
  if (starter) {
    try {
      const running = await startCluster({ dir: root });
      await writeAtomically(ready, JSON.stringify(running));
      return running;
    } catch (error) {
      await writeAtomically(failed, (error as Error).message);
      throw error;
    }
  }
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (existsSync(ready)) return JSON.parse(await readFile(ready, 'utf8')) as RunningCluster;
    if (existsSync(failed)) throw new Error(await readFile(failed, 'utf8'));
    await sleep(50);
  }
  throw new Error(`the test PostgreSQL cluster in ${root} did not start within 90 s`);
}

function adminUrl(): Promise<string> {
  const own = process.env['HARNESSEVAL_TEST_POSTGRES_URL'];
  if (own !== undefined && own !== '') return Promise.resolve(own);
  const root = inject('harnessevalPostgresRoot');
  if (root === undefined) {
    return Promise.reject(
      new Error(
        'no test PostgreSQL: run the tests with the project’s vitest.config.ts (its globalSetup test/setup/postgres.ts), or set HARNESSEVAL_TEST_POSTGRES_URL',
      ),
    );
  }
  cluster ??= readyCluster(root);
  return cluster.then((running) => running.adminUrl);
}

/** Runs SQL as the cluster's superuser (roles, databases, EXPLAIN set-up). */
export async function adminQuery(
  sql: string,
  database?: string,
  values?: readonly unknown[],
): Promise<pg.QueryResult> {
  const url = new URL(await adminUrl());
  if (database !== undefined) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    return await client.query(sql, values === undefined ? undefined : [...values]);
  } finally {
    await client.end();
  }
}

let databases = 0;

/** A new empty database; returns its URL (superuser, no password). */
export async function createTestDatabase(): Promise<string> {
  databases += 1;
  const name = `test_${process.pid}_${databases}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(`CREATE DATABASE ${name} STRATEGY FILE_COPY`);
  const url = new URL(await adminUrl());
  url.pathname = `/${name}`;
  return url.href;
}
