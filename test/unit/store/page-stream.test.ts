import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { streamRecords } from '../../../src/store/page-stream.ts';
import { SqliteStore } from '../../../src/store/sqlite-store.ts';
import type { ExperimentStore } from '../../../src/store/types.ts';
import { makeExperiment, makeRecords } from '../../helpers/experiments.ts';

const dir = mkdtempSync(join(tmpdir(), 'harnesseval-page-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function filled(store: ExperimentStore): Promise<ExperimentStore> {
  const experiment = makeExperiment();
  await store.createExperiment({ ...experiment, records: makeRecords(experiment, { epochs: 7 }) });
  return store;
}

describe.each([
  ['memory', () => new MemoryStore()],
  ['sqlite', () => new SqliteStore(join(dir, `${Math.random()}.db`))],
] as const)('streamRecords (%s store)', (_name, open) => {
  it('gives every record in listRecords order, across pages', async () => {
    const store = await filled(open());
    try {
      const all = await store.listRecords('exp-0001');
      expect(all.length).toBeGreaterThan(6);
      const streamed: RunRecord[] = [];
      for await (const record of streamRecords(store, 'exp-0001', { whole: true, pageSize: 3 }))
        streamed.push(record);
      expect(streamed).toEqual(all);
    } finally {
      await store.close();
    }
  });

  it('ends the read when the consumer stops early, and the store goes on working', async () => {
    const store = await filled(open());
    try {
      let taken = 0;
      for await (const _ of streamRecords(store, 'exp-0001', { whole: true, pageSize: 2 })) {
        taken += 1;
        if (taken === 3) break;
      }
      expect(taken).toBe(3);
      expect(await store.countRecords('exp-0001')).toBe((await store.listRecords('exp-0001')).length);
    } finally {
      await store.close();
    }
  });

  it('gives nothing for an unknown experiment', async () => {
    const store = open();
    try {
      const streamed: RunRecord[] = [];
      for await (const record of streamRecords(store, 'ghost')) streamed.push(record);
      expect(streamed).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('streamRecords with a failing store', () => {
  it("hands the store's error to the consumer after the pages read before it", async () => {
    const experiment = makeExperiment();
    const records = makeRecords(experiment);
    const store = {
      async readRecordPages(_id: string, visit: (page: RunRecord[]) => void | Promise<void>) {
        await visit(records.slice(0, 2));
        throw new Error('disk gone');
      },
    };
    const seen: RunRecord[] = [];
    const reading = (async () => {
      for await (const record of streamRecords(store, experiment.id)) seen.push(record);
    })();
    await expect(reading).rejects.toThrow('disk gone');
    expect(seen).toEqual(records.slice(0, 2));
  });
});
