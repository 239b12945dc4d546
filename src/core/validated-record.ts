import type { RunRecord } from './run-record.ts';

// Records that have just passed RunRecordSchema. The stores check every record they are given;
// a record fresh from the runner was parsed a moment before, and parsing it a second time was
// about a fifth of the per-trial cost of a run with the SQLite store (bench/README.md). Internal:
// not part of the public API, so a caller cannot vouch for a record it built itself.
const validated = new WeakSet<RunRecord>();

/** Marks `record` as the output of a RunRecordSchema parse; returns it. */
export function markValidated(record: RunRecord): RunRecord {
  validated.add(record);
  return record;
}

/** True when `record` came out of a RunRecordSchema parse (and was marked so). */
export function isValidated(record: RunRecord): boolean {
  return validated.has(record);
}
