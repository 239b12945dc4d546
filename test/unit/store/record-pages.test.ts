import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { recordPages } from '../../../src/store/record-pages.ts';
import type { RecordQuery } from '../../../src/store/types.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';

const TASKS = ['alpha', 'bravo', 'charlie'];

/** A store with `epochs` records of each task; the suite lists alpha, bravo, charlie. */
async function storeWith(epochs: number): Promise<MemoryStore> {
  const store = new MemoryStore();
  const records = TASKS.flatMap((task_id) =>
    Array.from({ length: epochs }, (_, epoch) => makeRecord({ task_id, epoch })),
  );
  await store.createExperiment(makeExperiment({ records }));
  return store;
}

async function all(pages: AsyncIterable<RunRecord[]>): Promise<{ sizes: number[]; runIds: string[] }> {
  const sizes: number[] = [];
  const runIds: string[] = [];
  for await (const page of pages) {
    sizes.push(page.length);
    runIds.push(...page.map((r) => r.run_id));
  }
  return { sizes, runIds };
}

describe('recordPages', () => {
  it('gives every record once, in getExperiment order, at most a page at a time', async () => {
    const store = await storeWith(4);
    const whole = (await store.getExperiment('exp-0001'))?.records.map((r) => r.run_id);
    const reads: RecordQuery[] = [];
    const counted = {
      listRecordSummaries: store.listRecordSummaries.bind(store),
      listRecords: (id: string, query: RecordQuery = {}) => {
        reads.push(query);
        return store.listRecords(id, query);
      },
    };
    expect(await all(recordPages(counted, 'exp-0001', 5))).toEqual({ sizes: [5, 5, 2], runIds: whole });
    expect(reads).toEqual([
      { offset: 0, limit: 5 },
      { offset: 5, limit: 5 },
      { offset: 10, limit: 5 },
    ]);
    expect(await all(recordPages(store, 'exp-0001', 100))).toEqual({ sizes: [12], runIds: whole });
  });

  it('gives nothing for an experiment without records or an unknown one', async () => {
    const store = new MemoryStore();
    await store.createExperiment(makeExperiment());
    expect(await all(recordPages(store, 'exp-0001', 5))).toEqual({ sizes: [], runIds: [] });
    expect(await all(recordPages(store, 'ghost', 5))).toEqual({ sizes: [], runIds: [] });
  });

  it('keeps to the records there were when it began while a run stores earlier ones and deletes one', async () => {
    const store = await storeWith(3);
    const before = (await store.getExperiment('exp-0001'))?.records.map((r) => r.run_id) ?? [];
    const seen: string[] = [];
    let page = 0;
    for await (const records of recordPages(store, 'exp-0001', 2)) {
      seen.push(...records.map((r) => r.run_id));
      page += 1;
      // A running experiment stores new epochs of alpha (ordered first) between two pages, and
      // replaces one record that the export has not reached yet with a new attempt.
      await store.appendRecord('exp-0001', makeRecord({ task_id: 'alpha', epoch: 10 + page }));
      if (page === 1)
        await store.appendRecord('exp-0001', makeRecord({ task_id: 'charlie', epoch: 1, attempts: 2 }));
    }
    expect(seen).toEqual(before);
    // The replaced record is read as it is now.
    const charlie = [] as RunRecord[];
    for await (const records of recordPages(store, 'exp-0001', 2))
      charlie.push(...records.filter((r) => r.run_id === 'charlie#1'));
    expect(charlie.map((r) => r.attempts)).toEqual([2]);
  });

  it('skips a record deleted after the summaries were read', async () => {
    const store = await storeWith(2);
    const pages = recordPages(
      {
        listRecordSummaries: async (id) => {
          const summaries = await store.listRecordSummaries(id);
          // The experiment is rebuilt without bravo#1 right after its summaries are read.
          const kept = (await store.getExperiment(id))?.records.filter((r) => r.run_id !== 'bravo#1') ?? [];
          await store.deleteExperiment(id);
          await store.createExperiment(makeExperiment({ records: kept }));
          return summaries;
        },
        listRecords: (id, query) => store.listRecords(id, query),
      },
      'exp-0001',
      4,
    );
    expect((await all(pages)).runIds).toEqual(['alpha#0', 'alpha#1', 'bravo#0', 'charlie#0', 'charlie#1']);
  });
});
