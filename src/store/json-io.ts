import { readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { type Annotation, type ExportedAnnotation, exportedAnnotation } from '../core/annotation.ts';
import { type Diagnostic, formatPath } from '../core/diagnostic.ts';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import { jsonErrorReason } from '../formats/jsonl.ts';
import { dataDepth, MAX_DATA_DEPTH } from '../util/json-depth.ts';
import { makeDirs } from '../util/make-dirs.ts';
import { type ExperimentExport, ExperimentExportSchema } from './export-schema.ts';
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

export interface ExportOptions extends JsonIoOptions {
  /** People's annotations on its trials (from the store), written after the records. */
  readonly annotations?: readonly Annotation[];
}

/**
 * The portable record: the Experiment as pretty-printed JSON (with `schema_version`) and, when it
 * has any, its `annotations` (without their store ids), secrets scrubbed.
 */
export function experimentToJson(experiment: Experiment, options: ExportOptions = {}): string {
  const annotations = (options.annotations ?? []).map(exportedAnnotation);
  const document = annotations.length === 0 ? experiment : { ...experiment, annotations };
  return `${redactSecrets(JSON.stringify(document, null, 2), options.env ?? process.env)}\n`;
}

/** Writes a stored experiment and its annotations to `file` (parent folders created) and returns it. */
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
  const annotations = await store.listAnnotations(experimentId);
  try {
    await makeDirs(dirname(file));
    await writeFile(file, experimentToJson(experiment, { ...options, annotations }), 'utf8');
  } catch (error) {
    throw new HarnessEvalError('store', `cannot write ${file}: ${errorMessage(error)}`, { cause: error });
  }
  return experiment;
}

/** Levels from an experiment down to a record's agent data (`records[i].output.structured`, …). */
const EXPERIMENT_ENVELOPE_DEPTH = 8;

/**
 * Parses an exported Experiment; a bad file fails with located diagnostics
 * (`file:line:col: records[0].outcome: ...`). Its annotations are checked and left out.
 */
export function parseExperimentJson(text: string, file: string): Experiment {
  return parseExperimentExport(text, file).experiment;
}

/** Parses an export into its experiment and its annotations (checked: each on one of its trials). */
export function parseExperimentExport(text: string, file: string): ExperimentExport {
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
  const parsed = ExperimentExportSchema.safeParse(value);
  if (parsed.success) {
    const { annotations, ...experiment } = parsed.data;
    return { experiment, annotations };
  }
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
  return (await readExperimentExport(file, shownAs)).experiment;
}

/** Reads and validates an export file: its experiment and its annotations. */
export async function readExperimentExport(file: string, shownAs = file): Promise<ExperimentExport> {
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
  return parseExperimentExport(text, shownAs);
}

/**
 * Stores a whole experiment and the exported annotations on its trials (with their times); fails
 * (`reason: 'exists'` in data) if its id exists, unless `replace`.
 */
export async function storeExperiment(
  store: ExperimentStore,
  experiment: Experiment,
  options: { readonly replace?: boolean; readonly annotations?: readonly ExportedAnnotation[] } = {},
): Promise<void> {
  if ((await store.getExperimentDocument(experiment.id)) !== undefined) {
    if (options.replace !== true) {
      throw new HarnessEvalError('invalid_input', `experiment ${experiment.id} already exists in the store`, {
        data: { experimentId: experiment.id, reason: 'exists' },
      });
    }
    await store.deleteExperiment(experiment.id);
  }
  await store.createExperiment(experiment);
  try {
    for (const { created_at, updated_at, ...text } of options.annotations ?? [])
      await store.addAnnotation(experiment.id, text, { created_at, ...(updated_at ? { updated_at } : {}) });
  } catch (error) {
    // Half an import is worse than none: the next attempt starts from an empty slot.
    await store.deleteExperiment(experiment.id);
    throw error;
  }
}

/** Reads, validates and stores an exported experiment; fails if its id exists unless `replace`. */
export async function importExperiment(
  store: ExperimentStore,
  file: string,
  options: ImportOptions = {},
): Promise<Experiment> {
  const { experiment, annotations } = await readExperimentExport(file);
  await storeExperiment(store, experiment, { ...options, annotations });
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
