import { readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { type Diagnostic, formatPath } from '../core/diagnostic.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import { type Experiment, ExperimentSchema } from '../core/experiment.ts';
import { jsonErrorReason } from '../formats/jsonl.ts';
import { dataDepth, MAX_DATA_DEPTH } from '../util/json-depth.ts';
import { makeDirs } from '../util/make-dirs.ts';
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
    await makeDirs(dirname(file));
    await writeFile(file, experimentToJson(experiment, options), 'utf8');
  } catch (error) {
    throw new HarnessEvalError('store', `cannot write ${file}: ${errorMessage(error)}`, { cause: error });
  }
  return experiment;
}

/** Levels from an experiment down to a record's agent data (`records[i].output.structured`, …). */
const EXPERIMENT_ENVELOPE_DEPTH = 8;

/**
 * Parses an exported Experiment; a bad file fails with located diagnostics
 * (`file:line:col: records[0].outcome: ...`).
 */
export function parseExperimentJson(text: string, file: string): Experiment {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const { line, col } = syntaxLocation(text, errorMessage(error));
    throw new HarnessEvalError('invalid_input', `${file} is not valid JSON`, {
      cause: error,
      diagnostics: [{ file, line, col, path: '', message: jsonErrorReason(error), severity: 'error' }],
    });
  }
  // A record holds agent data of at most MAX_DATA_DEPTH levels, a few levels down the experiment.
  const limit = MAX_DATA_DEPTH + EXPERIMENT_ENVELOPE_DEPTH;
  if (dataDepth(value, limit) > limit) {
    throw new HarnessEvalError('invalid_input', `${file} is not a HarnessEval experiment export`, {
      diagnostics: [
        {
          file,
          line: 1,
          col: 1,
          path: '',
          message: `the document nests more than ${limit} levels deep`,
          expected: `an exported experiment (agent data at most ${MAX_DATA_DEPTH} levels deep)`,
          severity: 'error',
        },
      ],
    });
  }
  const parsed = ExperimentSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new HarnessEvalError('invalid_input', `${file} is not a HarnessEval experiment export`, {
    cause: parsed.error,
    diagnostics: locateIssues(text, file, parsed.error.issues),
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

/**
 * Line and column (1-based) of a JSON syntax error, from V8's "at position N" or "(line L column C)";
 * the end of the text when the input stops early; 0:0 (the whole file) when V8 gives no place.
 */
export function syntaxLocation(text: string, message: string): { line: number; col: number } {
  const lineCol = /line (\d+) column (\d+)/.exec(message);
  if (lineCol) return { line: Number(lineCol[1]), col: Number(lineCol[2]) };
  const position = /position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : /end of JSON input/.test(message) ? text.length : -1;
  if (offset < 0) return { line: 0, col: 0 };
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, col: (lines.at(-1)?.length ?? 0) + 1 };
}

/**
 * Each zod issue at the line and column of the value it is about, or of its nearest present
 * parent (a missing key). JSON is YAML 1.2, and the yaml parser (run only for an invalid file)
 * keeps the source offsets that JSON.parse throws away.
 */
function locateIssues(text: string, file: string, issues: readonly z.core.$ZodIssue[]): Diagnostic[] {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, keepSourceTokens: false });
  return issues.map((issue) => {
    let node: unknown;
    for (let depth = issue.path.length; depth >= 0 && !isNode(node); depth--)
      node = document.getIn(issue.path.slice(0, depth), true);
    const offset = isNode(node) && node.range ? node.range[0] : 0;
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, col, path: formatPath(issue.path), message: issue.message, severity: 'error' };
  });
}
