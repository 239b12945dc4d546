import type { Hash } from 'node:crypto';
import type { Diagnostic } from '../core/diagnostic.ts';
import { type EvalCaseV0, parseEvalCaseV0 } from './eval-case-v0.ts';
import { readJsonl } from './jsonl.ts';
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
  assertFile(path);
  for await (const record of readJsonl(path, hash)) {
    if (record.kind === 'error') {
      yield { line: record.line, diagnostics: [record.diagnostic] };
      continue;
    }
    const result = parseEvalCaseV0(record.value, { file: path, line: record.line, text: record.text });
    yield result.ok
      ? { line: record.line, value: result.value, raw: record.value }
      : { line: record.line, diagnostics: result.diagnostics, raw: record.value };
  }
}
