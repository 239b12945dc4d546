import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { errorMessage, HarnessEvalError } from '../../core/errors.ts';
import { capDiagnostics, issuesToDiagnostics } from '../../formats/issues.ts';
import { jsonErrorReason } from '../../formats/jsonl.ts';
import { parseYamlSource } from '../../formats/yaml-source.ts';
import { syntaxLocation } from '../json-io.ts';

/**
 * JSON text another tool wrote, parsed and checked against the part of its schema we read. A bad
 * file fails with located diagnostics (`file:line:col: field: what was expected`). The slow,
 * position-keeping parse runs only when the check fails, so a large valid log costs one JSON.parse.
 */
export function parseForeignJson<S extends z.ZodType>(text: string, shown: string, schema: S): z.infer<S> {
  let value: unknown;
  try {
    value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    const { line, col } = syntaxLocation(text, errorMessage(error));
    throw new HarnessEvalError('invalid_input', `${shown} is not valid JSON`, {
      cause: error,
      diagnostics: [
        {
          file: shown,
          line,
          col,
          path: '',
          message: jsonErrorReason(error),
          expected: 'JSON',
          severity: 'error',
        },
      ],
    });
  }
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  const source = parseYamlSource(shown, text);
  const diagnostics = issuesToDiagnostics(parsed.error.issues, shown, source.locate);
  throw new HarnessEvalError('invalid_input', `${shown} is not in the format expected`, {
    cause: parsed.error,
    diagnostics: capDiagnostics(diagnostics, shown),
  });
}

/** Reads and checks one JSON file; `shown` names it in messages (the path as the user typed it). */
export async function readForeignJson<S extends z.ZodType>(
  path: string,
  shown: string,
  schema: S,
): Promise<z.infer<S>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HarnessEvalError('not_found', `cannot read ${shown}: ${errorMessage(error)}`, { cause: error });
  }
  return parseForeignJson(text, shown, schema);
}

/**
 * A problem with a whole file or one of its tables, where no line can be pointed at:
 * `file: path: message (expected …)`, and nothing is imported.
 */
export function fileProblem(
  summary: string,
  problem: { file: string; path?: string; message: string; expected: string; cause?: unknown },
): HarnessEvalError {
  return new HarnessEvalError('invalid_input', summary, {
    ...(problem.cause === undefined ? {} : { cause: problem.cause }),
    diagnostics: [
      {
        file: problem.file,
        line: 0,
        col: 0,
        path: problem.path ?? '',
        message: problem.message,
        expected: problem.expected,
        severity: 'error',
      },
    ],
  });
}
