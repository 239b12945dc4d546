import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { MemoryStore as PublicMemoryStore } from '../../../src/testing.ts';
import { describeStoreContract } from './contract.ts';
import { describeBookkeepingContract } from './contract-bookkeeping.ts';

describeStoreContract(
  'memory',
  async (options = {}) => new MemoryStore(options.env === undefined ? {} : { env: options.env }),
);

describeBookkeepingContract('memory', async () => new MemoryStore());

describe('MemoryStore', () => {
  it('ships to users from harnesseval/testing', () => {
    expect(PublicMemoryStore).toBe(MemoryStore);
  });
});
