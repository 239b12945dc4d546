import type { RunRecord } from '../core/run-record.ts';
import type { ExperimentStore } from './types.ts';

/** Whole records read at once by `recordPages`: a reader of every record holds this many, not all. */
export const RECORD_PAGE_SIZE = 100;

/**
 * Every record of an experiment in `getExperiment`'s order, a page at a time, for a reader that
 * goes through all of them once (an export) without holding the experiment. Which records is
 * fixed first by one read of the summaries, as a snapshot would: a run storing records meanwhile
 * shifts the offsets of those after them, so each page is matched by run_id, the window follows
 * the shift it saw, and a record not in its window is read by its task. Records stored after the
 * summaries are left out; one deleted meanwhile is skipped.
 */
export async function* recordPages(
  store: Pick<ExperimentStore, 'listRecordSummaries' | 'listRecords'>,
  experimentId: string,
  pageSize = RECORD_PAGE_SIZE,
): AsyncGenerator<RunRecord[]> {
  const summaries = await store.listRecordSummaries(experimentId);
  let shift = 0;
  for (let start = 0; start < summaries.length; start += pageSize) {
    const expected = summaries.slice(start, start + pageSize);
    const offset = start + shift;
    const window = await store.listRecords(experimentId, { offset, limit: pageSize });
    const place = new Map(window.map((record, i) => [record.run_id, i]));
    const byTask = new Map<string, RunRecord[]>();
    const page: RunRecord[] = [];
    for (const [i, summary] of expected.entries()) {
      const at = place.get(summary.run_id) ?? -1;
      const inWindow = window[at];
      if (inWindow !== undefined) {
        page.push(inWindow);
        // Records stored before this one since the summaries were read: later windows start later.
        shift = Math.max(shift, offset + at - (start + i));
        continue;
      }
      let task = byTask.get(summary.task_id);
      if (task === undefined) {
        task = await store.listRecords(experimentId, { task: summary.task_id });
        byTask.set(summary.task_id, task);
      }
      const record = task.find((r) => r.run_id === summary.run_id);
      if (record !== undefined) page.push(record);
    }
    yield page;
  }
}
