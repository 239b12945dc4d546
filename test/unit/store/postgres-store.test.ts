import { beforeAll } from 'vitest';
import { PostgresStore } from '../../../src/store/postgres-store.ts';
import { createTestDatabase, POSTGRES_SETUP_TIMEOUT_MS } from '../../helpers/postgres.ts';
import { describeStoreContract } from './contract.ts';

let url = '';
let count = 0;
beforeAll(async () => {
  url = await createTestDatabase();
}, POSTGRES_SETUP_TIMEOUT_MS);

// A real server (test/helpers/postgres.ts); each store its own schema of this file's database.
describeStoreContract('postgres', async (options = {}) => {
  count += 1;
  return PostgresStore.open(url, {
    schema: `contract_${count}`,
    ...(options.env === undefined ? {} : { env: options.env }),
  });
});
