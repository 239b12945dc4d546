import type { RunRecord } from '../core/run-record.ts';
import type { ExperimentStore, RecordPagesOptions } from './types.ts';

/** Thrown into a paused `readRecordPages` when the reader stops early, to end the read cleanly. */
class Stopped extends Error {}

/**
 * `readRecordPages` as an async iterable of records, read a page ahead of the consumer at most:
 * the store reads the next page only when the consumer has taken the last one's records. One
 * pass over the experiment in file order (a store's keyset read), where `listRecords` windows
 * re-sort the experiment's keys for every page. A consumer that stops early ends the read (the
 * store's cursor or connection is released), and a store error reaches the consumer.
 */
export async function* streamRecords(
  store: Pick<ExperimentStore, 'readRecordPages'>,
  experimentId: string,
  options: RecordPagesOptions = {},
): AsyncGenerator<RunRecord> {
  let page: RunRecord[] | undefined;
  let ended = false;
  let failure: unknown;
  let stop = false;
  let wake: (() => void) | undefined;
  let resume: (() => void) | undefined;
  const reading = store
    .readRecordPages(
      experimentId,
      async (records) => {
        if (stop) throw new Stopped();
        page = records;
        wake?.();
        await new Promise<void>((resolve) => {
          resume = resolve;
        });
        if (stop) throw new Stopped();
      },
      options,
    )
    .then(
      () => {
        ended = true;
      },
      (error: unknown) => {
        ended = true;
        if (!(error instanceof Stopped)) failure = error;
      },
    )
    .finally(() => wake?.());
  try {
    for (;;) {
      if (page !== undefined) {
        const records = page;
        page = undefined;
        yield* records;
        resume?.();
        continue;
      }
      if (ended) {
        if (failure !== undefined) throw failure;
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    stop = true;
    resume?.();
    await reading;
  }
}
