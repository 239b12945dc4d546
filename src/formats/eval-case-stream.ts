import type { Hash } from 'node:crypto';
import type { Diagnostic } from '../core/diagnostic.ts';
import { type EvalCaseV0, parseEvalCaseV0 } from './eval-case-v0.ts';
import { type JsonlRecord, readJsonlBatches } from './jsonl.ts';
import { assertFile } from './read-file.ts';

export type EvalCaseRecord =
  | { readonly line: number; readonly value: EvalCaseV0; readonly raw: unknown }
  | { readonly line: number; readonly diagnostics: readonly Diagnostic[]; readonly raw?: unknown };

/**
 * Streams the eval cases of a v0 JSONL file, one record per non-blank line: the frozen case,
 * or the located diagnostics of that line. Memory does not grow with the number of cases.
 * `raw` is the parsed JSON (when the line is JSON), for checks that look past the schema.
 */
export async function* streamEvalCases(path: string, hash?: Hash): AsyncGenerator<EvalCaseRecord> {
  for await (const batch of streamEvalCaseBatches(path, hash)) yield* batch;
}

/** `streamEvalCases` a chunk at a time, for loops where a promise per record would dominate. */
export async function* streamEvalCaseBatches(path: string, hash?: Hash): AsyncGenerator<EvalCaseRecord[]> {
  assertFile(path);
  for await (const batch of readJsonlBatches(path, hash)) yield batch.map((record) => toCase(path, record));
}

function toCase(path: string, record: JsonlRecord): EvalCaseRecord {
  if (record.kind === 'error') return { line: record.line, diagnostics: [record.diagnostic] };
  const result = parseEvalCaseV0(record.value, { file: path, line: record.line, text: record.text });
  return result.ok
    ? { line: record.line, value: result.value, raw: record.value }
    : { line: record.line, diagnostics: result.diagnostics, raw: record.value };
}
