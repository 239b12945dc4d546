import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { SqliteStore } from '../../../src/store/sqlite-store.ts';
import { describeStoreContract } from './contract.ts';
import { describeBookkeepingContract } from './contract-bookkeeping.ts';

let dir = '';
let count = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-sqlite-contract-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A real file in a temp folder, one per store, so WAL and fsync are exercised as in use.
describeStoreContract('sqlite', async (options = {}) => {
  count += 1;
  return new SqliteStore(
    join(dir, `store-${count}`, 'harnesseval.db'),
    options.env === undefined ? {} : { env: options.env },
  );
});

describeBookkeepingContract('sqlite', async () => {
  count += 1;
  return new SqliteStore(join(dir, `store-${count}`, 'harnesseval.db'));
});
