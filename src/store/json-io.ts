import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { type Experiment, ExperimentSchema } from '../core/experiment.ts';
import { redactSecrets } from './redact.ts';
import type { ExperimentStore } from './types.ts';

export interface JsonIoOptions {
  /** Environment whose secret-looking values are scrubbed from exports (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

export interface ImportOptions extends JsonIoOptions {
  /** Overwrite an experiment with the same id instead of failing. */
  readonly replace?: boolean;
}

/** The portable record: the Experiment as pretty-printed JSON (with `schema_version`), secrets scrubbed. */
export function experimentToJson(experiment: Experiment, options: JsonIoOptions = {}): string {
  return `${redactSecrets(JSON.stringify(experiment, null, 2), options.env ?? process.env)}\n`;
}

/** Writes a stored experiment to `file` (parent folders created) and returns it. */
export async function exportExperiment(
  store: ExperimentStore,
  experimentId: string,
  file: string,
  options: JsonIoOptions = {},
): Promise<Experiment> {
  const experiment = await store.getExperiment(experimentId);
  if (experiment === undefined) {
    throw new HarnessEvalError('not_found', `no experiment ${experimentId} in the store`, {
      data: { experimentId },
    });
  }
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, experimentToJson(experiment, options), 'utf8');
  } catch (error) {
    throw new HarnessEvalError('store', `cannot write ${file}: ${errorMessage(error)}`, { cause: error });
  }
  return experiment;
}

/**
 * Parses an exported Experiment; a bad file fails with located diagnostics
 * (`file:line:col: records.0.outcome: ...`).
 */
export function parseExperimentJson(text: string, file: string): Experiment {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec(errorMessage(error));
    const { line, col } =
      position?.[1] === undefined ? { line: 0, col: 0 } : linePosition(text, Number(position[1]));
    const message = errorMessage(error).replace(/ in JSON at position \d+.*$/, '');
    throw new HarnessEvalError('invalid_input', `${file} is not valid JSON`, {
      diagnostics: [{ file, line, col, path: '', message, severity: 'error' }],
    });
  }
  const parsed = ExperimentSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new HarnessEvalError('invalid_input', `${file} is not a HarnessEval experiment`, {
    diagnostics: locateIssues(text, file, parsed.error),
  });
}

/**
 * Reads and validates an exported experiment file (located diagnostics when it is not one).
 * `shownAs` is the name used in messages, e.g. the path as the user typed it.
 */
export async function readExperimentFile(file: string, shownAs = file): Promise<Experiment> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT';
    throw new HarnessEvalError(
      missing ? 'not_found' : 'invalid_input',
      `cannot read ${shownAs}: ${errorMessage(error)}`,
      {
        cause: error,
      },
    );
  }
  return parseExperimentJson(text, shownAs);
}

/** Stores a whole experiment; fails (`reason: 'exists'` in data) if its id exists, unless `replace`. */
export async function storeExperiment(
  store: ExperimentStore,
  experiment: Experiment,
  options: { readonly replace?: boolean } = {},
): Promise<void> {
  if ((await store.getExperiment(experiment.id)) !== undefined) {
    if (options.replace !== true) {
      throw new HarnessEvalError('invalid_input', `experiment ${experiment.id} already exists in the store`, {
        data: { experimentId: experiment.id, reason: 'exists' },
      });
    }
    await store.deleteExperiment(experiment.id);
  }
  await store.createExperiment(experiment);
}

/** Reads, validates and stores an exported experiment; fails if its id exists unless `replace`. */
export async function importExperiment(
  store: ExperimentStore,
  file: string,
  options: ImportOptions = {},
): Promise<Experiment> {
  const experiment = await readExperimentFile(file);
  await storeExperiment(store, experiment, options);
  return experiment;
}

function linePosition(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, col: offset - before.lastIndexOf('\n') };
}

/** Each zod issue at the line and column of the value it is about (or of its nearest present parent). */
function locateIssues(text: string, file: string, error: z.ZodError): Diagnostic[] {
  const lineCounter = new LineCounter();
  // JSON is YAML 1.2, and the yaml CST keeps source ranges that JSON.parse throws away.
  const document = parseDocument(text, { lineCounter });
  return error.issues.map((issue) => {
    const path = issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key));
    let line = 0;
    let col = 0;
    for (let depth = path.length; depth >= 0; depth--) {
      const node = document.getIn(path.slice(0, depth), true);
      const range = typeof node === 'object' && node !== null && 'range' in node ? node.range : undefined;
      if (Array.isArray(range) && typeof range[0] === 'number') {
        ({ line, col } = lineCounter.linePos(range[0]));
        break;
      }
    }
    return { file, line, col, path: path.join('.'), message: issue.message, severity: 'error' };
  });
}
