import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.ts';
import { POSTGRES_SCHEMA_VERSION } from '../../../src/store/postgres-migrations.ts';
import { PostgresStore } from '../../../src/store/postgres-store.ts';
import { SqliteStore } from '../../../src/store/sqlite-store.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';
import { adminQuery, createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../../helpers/postgres.ts';
import { freePort } from '../../helpers/postgres-cluster.ts';
import { rejection } from './contract.ts';

let url = '';
const database = () => new URL(url).pathname.slice(1);
beforeAll(async () => {
  url = await createTestDatabase();
}, POSTGRES_SETUP_TIMEOUT_MS);

/** The same URL with another user, password, port or database. */
function variant(change: (u: URL) => void): string {
  const u = new URL(url);
  change(u);
  return u.href;
}

describe('opening a PostgreSQL store', () => {
  it('is what openStore gives for a postgres:// URL, with its tables in schema harnesseval at the current version', async () => {
    const store = await openStore(url, { env: {} });
    expect(store).toBeInstanceOf(PostgresStore);
    await store.createExperiment(makeExperiment());
    await store.close();
    const { rows } = await adminQuery(
      'SELECT version FROM harnesseval.migrations ORDER BY version',
      database(),
    );
    // Every step, in order, up to the current version.
    expect(rows.map((r) => (r as { version: number }).version)).toEqual(
      Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1),
    );
    const again = await openStore(
      variant((u) => u.searchParams.set('schema', 'harnesseval')),
      {
        mustExist: true,
      },
    );
    expect((await again.listExperiments()).map((s) => s.id)).toEqual(['exp-0001']);
    await again.close();
  });

  it('commits without waiting for the WAL flush by default (durability normal), waits with full', async () => {
    const normal = await PostgresStore.open(url, { schema: 'durability' });
    const full = await PostgresStore.open(
      variant((u) => u.searchParams.set('options', '-c work_mem=8MB')),
      {
        schema: 'durability',
        durability: 'full',
      },
    );
    const given = await openStore(
      variant((u) => u.searchParams.set('options', '-c work_mem=8MB')),
      {
        durability: 'normal',
      },
    );
    expect(await normal.settings()).toEqual({
      synchronous_commit: 'off',
      schema_version: POSTGRES_SCHEMA_VERSION,
    });
    expect((await full.settings()).synchronous_commit).toBe('on');
    // A URL with startup options of its own still gets the store's.
    if (!(given instanceof PostgresStore)) throw new Error('not postgres');
    expect((await given.settings()).synchronous_commit).toBe('off');
    await Promise.all([normal.close(), full.close(), given.close()]);
  });

  it('migrates a new schema once when several processes open it at the same moment', async () => {
    const stores = await Promise.all(
      Array.from({ length: 4 }, () => PostgresStore.open(url, { schema: 'raced', env: {} })),
    );
    await Promise.all(stores.map((s) => s.close()));
    const { rows } = await adminQuery('SELECT version FROM raced.migrations', database());
    expect(rows).toHaveLength(POSTGRES_SCHEMA_VERSION);
  });

  it('does not create tables for a read-only command (mustExist): not_found naming the store', async () => {
    const error = await rejection(PostgresStore.open(url, { schema: 'never_made', mustExist: true }));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('schema never_made');
    const { rows } = await adminQuery("SELECT to_regnamespace('never_made') AS s", database());
    expect((rows[0] as { s: unknown }).s).toBeNull();
  });

  it('refuses a schema written by a newer HarnessEval', async () => {
    await (await PostgresStore.open(url, { schema: 'future' })).close();
    await adminQuery(
      `INSERT INTO future.migrations (version) VALUES (${POSTGRES_SCHEMA_VERSION + 1})`,
      database(),
    );
    const error = await rejection(PostgresStore.open(url, { schema: 'future' }));
    expect(error.code).toBe('store');
    expect(error.message).toContain(`schema version ${POSTGRES_SCHEMA_VERSION + 1}`);
    expect(error.message).toContain('upgrade harnesseval');
  });

  it('refuses a schema name that is not a plain identifier, and a URL it cannot parse', async () => {
    expect((await rejection(PostgresStore.open(url, { schema: 'a"; DROP' }))).code).toBe('usage');
    const bad = await rejection(openStore('postgres://ci:s3cret-pass@[bad/db'));
    expect(bad.code).toBe('usage');
    expect(bad.message).not.toContain('s3cret-pass');
  });
});

describe('connection errors are one line, located, and never show the password', () => {
  it('names the server when nothing listens there', async () => {
    const port = await freePort();
    const error = await rejection(openStore(variant((u) => (u.port = String(port)))));
    expect(error.code).toBe('store');
    expect(error.message).toBe(
      `cannot connect to postgres://postgres@127.0.0.1:${port}/${database()}: connection refused (is PostgreSQL running there?)`,
    );
  });

  it('says the password was refused without printing it', async () => {
    await adminQuery("CREATE ROLE alice LOGIN PASSWORD 'right-password-123'");
    const wrong = variant((u) => {
      u.username = 'alice';
      u.password = 'wrong-password-456';
    });
    const error = await rejection(openStore(wrong));
    expect(error.code).toBe('store');
    expect(error.message).toContain('password authentication failed for user "alice"');
    expect(error.message).toContain('alice:***@127.0.0.1');
    expect(error.message).not.toContain('wrong-password-456');
    expect(error.message).not.toContain('\n');
  });

  it('names a database that does not exist', async () => {
    const error = await rejection(openStore(variant((u) => (u.pathname = '/no_such_db'))));
    expect(error.message).toMatch(
      /^cannot connect to postgres:\/\/.*\/no_such_db: database "no_such_db" does not exist$/,
    );
  });
});

describe('order and matching are byte-wise, as in SQLite, whatever the database locale', () => {
  it('sorts unknown tasks by id in C order in an ICU en-US database', async () => {
    const name = `${database()}_icu`;
    await adminQuery(
      `CREATE DATABASE ${name} LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8' TEMPLATE template0`,
    );
    const pgStore = await openStore(
      variant((u) => (u.pathname = `/${name}`)),
      { env: {} },
    );
    const sqlite = new SqliteStore(':memory:', { env: {} });
    const ids: string[][] = [];
    for (const store of [pgStore, sqlite]) {
      await store.createExperiment(makeExperiment({ suite: { id: 's', tasks: [] } }));
      for (const task of ['beta', 'Zulu', 'alpha', 'Alpha', '_x', 'été'])
        await store.appendRecord('exp-0001', makeRecord({ task_id: task }));
      ids.push((await store.getExperiment('exp-0001'))?.records.map((r) => r.task_id) ?? []);
      await store.close();
    }
    expect(ids[0]).toEqual(['Alpha', 'Zulu', '_x', 'alpha', 'beta', 'été']);
    expect(ids[0]).toEqual(ids[1]);
  });
});
