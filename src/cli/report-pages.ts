import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import { type Outcome, type RunRecord, RunRecordSchema } from '../core/run-record.ts';
import { jsonFrame } from '../reporters/json.ts';
import type { RecordPages, ReportWriter, TrialGlance } from '../reporters/types.ts';
import { streamRecords } from '../store/page-stream.ts';
import { secretRedactor, secretsFromEnv } from '../store/redact.ts';
import type { ExperimentStore } from '../store/types.ts';
import { makeDirs } from '../util/make-dirs.ts';
import type { SpooledRecords } from './run-spool.ts';

/**
 * Records read per query: a page of full records stays a few megabytes for small records (tens
 * for big traces) whatever the run's size. Every read is one keyset pass (`streamRecords`: the
 * keys sorted once, then each page by key), filtered or not; windows (`listRecords` with an
 * offset) sort the experiment's keys again for every page, which made the console's glances of a
 * 1,000,000-trial run take minutes.
 */
export const RECORD_PAGE = 1_000;
/** Trial records are a tenth of a record: more of them per query. */
const GLANCE_PAGE = 1_000;

/**
 * A stored experiment's records for the streamed reports, read page by page (never all at once)
 * and scrubbed of the environment's secrets as the whole-experiment report path scrubs them.
 */
export function storePages(
  store: ExperimentStore,
  experimentId: string,
  env: NodeJS.ProcessEnv,
): RecordPages {
  const scrubbed = scrubber(env);
  return {
    count: (outcomes?: readonly Outcome[]) =>
      store.countRecords(experimentId, outcomes === undefined ? {} : { outcome: outcomes }),
    async *records(query = {}) {
      const limit = query.limit ?? Number.POSITIVE_INFINITY;
      if (limit <= 0) return;
      const options = {
        whole: true,
        pageSize: Math.min(RECORD_PAGE, limit),
        ...(query.outcomes === undefined ? {} : { outcomes: query.outcomes }),
      };
      let given = 0;
      // Leaving the loop at the limit ends the store's read.
      for await (const record of streamRecords(store, experimentId, options)) {
        yield scrubbed(record, (v) => RunRecordSchema.parse(v) as RunRecord);
        if (++given >= limit) return;
      }
    },
    async *glances() {
      for await (const record of streamRecords(store, experimentId, { pageSize: GLANCE_PAGE }))
        yield scrubbed(glanceOf(record), (v) => v as TrialGlance);
    },
  };
}

/**
 * Scrubs a value of the environment's secrets as the reports do: through its JSON text, parsed
 * back by `parse` only when a secret was there. Without a secret in the environment there is
 * nothing to scrub: no text round trip per value.
 */
export function scrubber(env: NodeJS.ProcessEnv): <T>(value: T, parse: (v: unknown) => T) => T {
  if (secretsFromEnv(env).length === 0) return (value) => value;
  const redact = secretRedactor(env);
  return (value, parse) => {
    const text = JSON.stringify(value);
    const clean = redact(text);
    return clean === text ? value : parse(JSON.parse(clean));
  };
}

/** A trial record's glance; its error kind is the record's, else its output's (as a summary's). */
export function glanceOf(record: RunRecord): TrialGlance {
  const errorKind = record.error_kind ?? record.output.error_kind;
  return {
    run_id: record.run_id,
    task_id: record.task_id,
    epoch: record.epoch,
    outcome: record.outcome,
    scores: record.scores,
    duration_seconds: record.duration_seconds,
    cost_usd: record.cost_usd,
    ...(errorKind === undefined ? {} : { error_kind: errorKind }),
  };
}

/** A report that cannot be written: a `usage` error naming the file. */
function refusedReport(destination: string, cause: unknown): HarnessEvalError {
  return new HarnessEvalError('usage', `cannot write the report to ${destination}: ${errorMessage(cause)}`, {
    cause,
    data: { destination },
  });
}

/** Pieces are gathered up to this many characters before a write (a record at a time is too small). */
const FLUSH_AT = 1 << 20;

/**
 * Writes a report to `destination` (parent folders made) in pieces as `produce` gives them. A
 * bad path fails with `usage` naming the file, like a whole report's.
 */
export async function writeReportFile(
  destination: string,
  produce: (write: ReportWriter) => Promise<void>,
): Promise<void> {
  const refused = (cause: unknown) => refusedReport(destination, cause);
  let file: Awaited<ReturnType<typeof open>>;
  try {
    await makeDirs(dirname(destination));
    file = await open(destination, 'w');
  } catch (cause) {
    throw refused(cause);
  }
  try {
    let pending: string[] = [];
    let size = 0;
    const flush = async () => {
      if (size === 0) return;
      const text = pending.join('');
      pending = [];
      size = 0;
      try {
        await file.write(text, null, 'utf8');
      } catch (cause) {
        throw refused(cause);
      }
    };
    await produce(async (chunk) => {
      pending.push(chunk);
      size += chunk.length;
      if (size >= FLUSH_AT) await flush();
    });
    await flush();
  } finally {
    await file.close();
  }
}

/** Bytes copied from the spool per read: the loop yields to signals between reads. */
const COPY_CHUNK = 4 << 20;

/**
 * Writes the json report of `experiment` whose records the run spooled as they finished
 * (`RunSpool`): its frame around the spooled text, copied as bytes (never decoded). False, with
 * nothing written, when the spool cannot be read (the caller reads the store instead). A bad
 * destination fails with `usage` naming the file, like any report's.
 */
export async function writeSpooledJson(
  destination: string,
  experiment: Experiment,
  spooled: SpooledRecords,
): Promise<boolean> {
  let from: number;
  try {
    from = openSync(spooled.path, 'r');
  } catch {
    return false;
  }
  const { head, tail } = jsonFrame(experiment);
  let out: number;
  try {
    await makeDirs(dirname(destination));
    out = openSync(destination, 'w');
  } catch (cause) {
    closeSync(from);
    throw refusedReport(destination, cause);
  }
  try {
    const write = (data: string | Uint8Array, length?: number) => {
      try {
        if (typeof data === 'string') writeSync(out, data, null, 'utf8');
        else for (let at = 0; at < (length ?? 0); ) at += writeSync(out, data, at, (length ?? 0) - at);
      } catch (cause) {
        throw refusedReport(destination, cause);
      }
    };
    write(head);
    const chunk = Buffer.allocUnsafe(COPY_CHUNK);
    for (let read = readSync(from, chunk); read > 0; read = readSync(from, chunk)) {
      write(chunk, read);
      await new Promise((resolve) => setImmediate(resolve));
    }
    write(tail(spooled.count));
  } finally {
    closeSync(from);
    closeSync(out);
  }
  return true;
}

/** A writer to a terminal stream that waits when the stream asks it to (a pipe to `less`). */
export function streamWriter(stream: Writable): ReportWriter & { readonly last: () => string } {
  let last = '';
  const write = async (chunk: string) => {
    if (chunk === '') return;
    last = chunk;
    if (!stream.write(chunk)) await new Promise<void>((resolve) => stream.once('drain', resolve));
  };
  return Object.assign(write, { last: () => last });
}
