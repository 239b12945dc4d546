import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { type Experiment, ExperimentSchema } from '../core/experiment.ts';
import type { ExperimentStore } from '../store/types.ts';

export const DEFAULT_STORE_PATH = '.harnesseval/harnesseval.db';

/** Line and column (1-based) of a JSON syntax error, from V8's "at position N" or "(line L column C)". */
function syntaxLocation(text: string, message: string): { line: number; col: number } {
  const lineCol = /line (\d+) column (\d+)/.exec(message);
  if (lineCol) return { line: Number(lineCol[1]), col: Number(lineCol[2]) };
  const position = /position (\d+)/.exec(message);
  if (!position) return { line: 0, col: 0 };
  const before = text.slice(0, Number(position[1]));
  const lines = before.split('\n');
  return { line: lines.length, col: (lines.at(-1)?.length ?? 0) + 1 };
}

/**
 * Where each schema issue sits in the file. JSON is YAML, so the yaml parser (run only when the
 * file is invalid) gives every node's offset; an issue on a missing key points at its parent.
 */
function locateIssues(file: string, text: string, issues: readonly z.core.$ZodIssue[]): Diagnostic[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, keepSourceTokens: false });
  return issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    let node: unknown;
    for (let depth = path.length; depth >= 0 && !isNode(node); depth--)
      node = doc.getIn(path.slice(0, depth), true);
    const offset = isNode(node) && node.range ? node.range[0] : 0;
    const { line, col } = offset > 0 ? lineCounter.linePos(offset) : { line: 1, col: 1 };
    return {
      file,
      line,
      col,
      path: path
        .map((p) => (typeof p === 'number' ? `[${p}]` : p))
        .join('.')
        .replaceAll('.[', '['),
      message: issue.message,
      severity: 'error',
    };
  });
}

/** Reads an exported Experiment JSON file, with located diagnostics for bad syntax or fields. */
export async function readExperimentFile(path: string, file = path): Promise<Experiment> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new HarnessEvalError('not_found', `cannot read ${file}: ${errorMessage(cause)}`, { cause });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    const message = errorMessage(cause);
    const { line, col } = syntaxLocation(text, message);
    throw new HarnessEvalError('invalid_input', `${file} is not valid JSON`, {
      cause,
      diagnostics: [{ file, line, col, path: '', message, severity: 'error' }],
    });
  }
  const parsed = ExperimentSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new HarnessEvalError('invalid_input', `${file} is not a HarnessEval experiment export`, {
    cause: parsed.error,
    diagnostics: locateIssues(file, text, parsed.error.issues),
  });
}

/**
 * Opens the experiment store. The store module is written on another branch; until it is merged
 * this seam is the only place that needs `await import('../store/index.ts')` + `openStore(path)`.
 */
async function openExperimentStore(path: string): Promise<ExperimentStore> {
  const { openStore } = await import('../store/index.ts');
  return openStore(path, { mustExist: true });
}

export interface ExperimentSourceOptions {
  readonly cwd: string;
  /** The SQLite file; default `.harnesseval/harnesseval.db` under cwd. */
  readonly store?: string | undefined;
}

/** An experiment from `EXPERIMENT_ID` (looked up in the store) or `FILE.json` (an export). */
export async function loadExperiment(
  reference: string,
  options: ExperimentSourceOptions,
): Promise<Experiment> {
  const file = resolve(options.cwd, reference);
  if (reference.toLowerCase().endsWith('.json') || existsSync(file)) {
    if (!existsSync(file)) throw new HarnessEvalError('not_found', `file not found: ${reference}`);
    return readExperimentFile(file, reference);
  }
  const storePath = resolve(options.cwd, options.store ?? DEFAULT_STORE_PATH);
  const store = await openExperimentStore(storePath);
  try {
    const { resolveExperimentId } = await import('../store/resolve-id.ts');
    const experiment = await store.getExperiment(await resolveExperimentId(store, reference));
    if (experiment === undefined) {
      throw new HarnessEvalError(
        'not_found',
        `no experiment "${reference}" in ${storePath} (see: harnesseval runs list)`,
      );
    }
    return experiment;
  } finally {
    await store.close();
  }
}
