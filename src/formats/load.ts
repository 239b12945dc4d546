import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, extname, isAbsolute, relative, resolve } from 'node:path';
import { defaultScoring } from '../core/default-scoring.ts';
import type { Diagnostic } from '../core/diagnostic.ts';
import { HarnessEvalError, type Result } from '../core/errors.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { Rubric } from '../core/rubric.ts';
import type { Suite, SuiteFormat } from '../core/suite.ts';
import type { Task } from '../core/task.ts';
import { newSha256 } from '../util/sha256.ts';
import type { FileResult } from './benchmark.ts';
import { detectDocumentKind, type FileKind, isJsonlDataset } from './detect.ts';
import { isValidEvalCaseV0 } from './eval-case-v0-rules.ts';
import type { GradedSuite } from './graded-evaluators.ts';
import { capDiagnostics, located, MAX_DIAGNOSTICS } from './issues.ts';
import { readJsonlBatches } from './jsonl.ts';
import type { ModelScript } from './model-script.ts';
import type { PluginNames } from './plugin-check.ts';
import { assertFile, combinedHash, fileHash, readDocument } from './read-file.ts';

export interface LoadOptions {
  /** Skip detection and read the file as this kind. */
  readonly format?: FileKind;
  /** Harbor task folders: multiplies every agent and verifier timeout (Harbor's --timeout-multiplier). */
  readonly timeoutMultiplier?: number;
  /**
   * Whether a benchmark's own `agent:` must be creatable (its module exists). Default true: that
   * is what `run FILE` needs. `run FILE --harness H` passes false, as it never creates that agent.
   */
  readonly checkAgent?: boolean;
  /**
   * The plugin set whose names the file may use (a `PluginSet`); the default set's when absent.
   * Loading checks names and options only: a file's `plugins:` modules are loaded into the set
   * beforehand, by `loadFilePlugins(file, plugins)` (the CLI does it for every file it is given).
   */
  readonly plugins?: PluginNames;
}

/** What `validateFile` found: the kind, how many cases/tests/tasks/dimensions, and the problems. */
export interface FileReport {
  readonly kind: FileKind | undefined;
  readonly file: string;
  readonly count: number;
  readonly diagnostics: readonly Diagnostic[];
}

type Loaded =
  | { readonly kind: 'eval-case-v0'; readonly suite: Suite }
  | { readonly kind: 'benchmark' | 'suite' | 'task-spec' | 'harbor'; readonly suite: Suite }
  | { readonly kind: 'rubric'; readonly rubric: Rubric }
  | { readonly kind: 'harness'; readonly config: HarnessConfig }
  | { readonly kind: 'model-script'; readonly script: ModelScript };

const SUITE_FORMAT: Record<'eval-case-v0' | 'benchmark' | 'suite' | 'task-spec', SuiteFormat> = {
  'eval-case-v0': 'eval-case-v0',
  benchmark: 'benchmark-v1',
  suite: 'suite-v1',
  'task-spec': 'task-spec-v1',
};

/** Extensions of the YAML/JSON input documents; a JSONL dataset is recognised by its content too. */
const DOCUMENT_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** A README, a harness's source, a package.json: said in one line, not as a list of YAML errors. */
function notAnInputFile(display: string): Diagnostic {
  return located(
    display,
    { line: 0, col: 0 },
    [],
    `not an input file: ${basename(display)}`,
    'a v0 JSONL dataset (.jsonl), or a benchmark, suite, task spec, rubric or harness config (.yaml, .yml, .json); or pass --as KIND',
  );
}

function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

async function headOf(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Validation only: each record is checked and dropped, so memory stays flat. Valid records are
 * judged by the zod-free rules; zod loads only to explain an invalid one (CLI start-up).
 */
async function checkEvalCases(
  file: string,
): Promise<{ count: number; diagnostics: Diagnostic[]; suite?: Suite }> {
  assertFile(file);
  const diagnostics: Diagnostic[] = [];
  const ids = new Map<string, number>();
  let count = 0;
  for await (const batch of readJsonlBatches(file)) {
    for (const record of batch) {
      if (record.kind === 'error') {
        diagnostics.push(record.diagnostic);
        continue;
      }
      if (isValidEvalCaseV0(record.value)) {
        count++;
        const duplicate = duplicateCaseId(ids, record.value.case_id, file, record.line);
        if (duplicate !== undefined) diagnostics.push(duplicate);
        continue;
      }
      const { checkEvalCaseV0 } = await import('./eval-case-v0.ts');
      diagnostics.push(...checkEvalCaseV0(record.value, { file, line: record.line, text: record.text }));
    }
    if (diagnostics.length > MAX_DIAGNOSTICS) break;
  }
  if (count === 0 && diagnostics.length === 0)
    diagnostics.push(
      located(file, { line: 1, col: 1 }, [], 'the file has no eval cases', 'one JSON object per line'),
    );
  return { count, diagnostics };
}

/** A case id seen before (on the line `ids` holds for it) is refused by `validate` and `run` alike. */
function duplicateCaseId(
  ids: Map<string, number>,
  id: string,
  file: string,
  line: number,
): Diagnostic | undefined {
  const first = ids.get(id);
  if (first === undefined) {
    ids.set(id, line);
    return undefined;
  }
  return located(
    file,
    { line, col: 1 },
    ['case_id'],
    `duplicate case_id "${id}" (first on line ${first})`,
    'unique case ids',
  );
}

/** Streams a v0 dataset into a Suite (or diagnostics), stopping after MAX_DIAGNOSTICS. */
async function loadEvalCases(
  file: string,
): Promise<{ count: number; diagnostics: Diagnostic[]; suite?: Suite }> {
  const [{ streamEvalCaseBatches }, { evalCaseToTask }] = await Promise.all([
    import('./eval-case-stream.ts'),
    import('./eval-case-v0.ts'),
  ]);
  const diagnostics: Diagnostic[] = [];
  const tasks: Task[] = [];
  const ids = new Map<string, number>();
  const hash = newSha256();
  let count = 0;
  for await (const batch of streamEvalCaseBatches(file, hash)) {
    for (const record of batch) {
      if ('diagnostics' in record) {
        diagnostics.push(...record.diagnostics);
        continue;
      }
      count++;
      const duplicate = duplicateCaseId(ids, record.value.case_id, file, record.line);
      if (duplicate !== undefined) {
        diagnostics.push(duplicate);
        continue;
      }
      tasks.push(evalCaseToTask(record.value, { file, line: record.line }));
    }
    if (diagnostics.length > MAX_DIAGNOSTICS) break;
  }
  if (count === 0 && diagnostics.length === 0)
    diagnostics.push(
      located(file, { line: 1, col: 1 }, [], 'the file has no eval cases', 'one JSON object per line'),
    );
  if (diagnostics.length > 0) return { count, diagnostics };
  const suite: Suite = {
    schema_version: 1,
    id: basename(file, extname(file)),
    name: basename(file),
    tasks,
    evaluators: [],
    metrics: [],
    thresholds: {},
    scoring: defaultScoring(),
    rubrics: [],
    source: { format: 'eval-case-v0', file, hash: hash.digest('hex') },
  };
  return { count, diagnostics, suite };
}

function resultOf<T>(r: FileResult<T>): { count: number; diagnostics: Diagnostic[]; value?: T } {
  return r.ok
    ? { count: r.count, diagnostics: [], value: r.value }
    : { count: 0, diagnostics: [...r.diagnostics] };
}

/** `llm_rubric` and `human` evaluators become criteria (formats/graded-evaluators.ts), loaded only when used. */
async function gradedSuite(suite: Suite, file: string): Promise<GradedSuite> {
  const { isGradedEvaluator } = await import('../core/graded-evaluators.ts');
  const refs = [
    ...suite.evaluators,
    ...suite.tasks.flatMap((t) => [
      ...t.evaluators,
      ...t.criteria.flatMap((c) => (c.evaluator ? [c.evaluator] : [])),
    ]),
  ];
  if (!refs.some((r) => isGradedEvaluator(r.name))) return { ok: true, suite, files: [] };
  return (await import('./graded-evaluators.ts')).withGradedEvaluators(suite, file);
}

/** Reads any input file; returns what it is and either the loaded value or the diagnostics. */
async function loadAny(
  path: string,
  options: LoadOptions,
  keep: boolean,
): Promise<{ kind: FileKind | undefined; count: number; diagnostics: Diagnostic[]; loaded?: Loaded }> {
  const file = resolve(path);
  const display = path;
  // A folder is a Harbor task, or a folder of them (Terminal-Bench and its kin).
  if (isDirectory(file)) return loadHarborFolder(file, display, options);
  assertFile(path);
  // The file as the user named it; files it references, relative to the working directory.
  const relabel = (ds: Diagnostic[]) =>
    ds.map((d) => ({ ...d, file: d.file === file ? display : shortPath(d.file) }));
  const kind = options.format ?? (isJsonlDataset(file, await headOf(file)) ? 'eval-case-v0' : undefined);
  if (kind === undefined && !DOCUMENT_EXTENSIONS.has(extname(file).toLowerCase()))
    return { kind, count: 0, diagnostics: [notAnInputFile(display)] };
  if (kind === 'eval-case-v0') {
    // Validation (`checkEvalCases`) keeps memory flat: it holds the ids, not the cases.
    const r = keep ? await loadEvalCases(file) : await checkEvalCases(file);
    const suite =
      r.suite === undefined
        ? undefined
        : {
            ...r.suite,
            source: { format: 'eval-case-v0' as const, file: display, hash: r.suite.source?.hash ?? '' },
          };
    return {
      kind,
      count: r.count,
      diagnostics: relabel(r.diagnostics),
      ...(suite === undefined ? {} : { loaded: { kind, suite } }),
    };
  }
  const doc = readDocument(file);
  if (doc.diagnostics.length > 0) return { kind, count: 0, diagnostics: relabel([...doc.diagnostics]) };
  const { parseYamlSource } = await import('./yaml-source.ts');
  const source = parseYamlSource(file, doc.text);
  if (source.diagnostics.length > 0) return { kind, count: 0, diagnostics: relabel([...source.diagnostics]) };
  if (source.value === undefined || source.value === null)
    return {
      kind,
      count: 0,
      diagnostics: relabel([
        located(file, { line: 1, col: 1 }, [], 'the file is empty', 'a YAML or JSON document'),
      ]),
    };
  const detected = kind === undefined ? detectDocumentKind(source.value) : kind;
  if (detected === undefined && extname(file).toLowerCase() === '.json')
    return { kind: undefined, count: 0, diagnostics: [notAnInputFile(display)] };
  if (detected === undefined)
    return {
      kind: undefined,
      count: 0,
      diagnostics: relabel([
        located(
          file,
          { line: 1, col: 1 },
          [],
          'cannot tell what kind of file this is',
          'a v0 JSONL dataset, benchmark (version + tests), suite (suite_id), task spec (acceptance_criteria), rubric (rubric), harness config (adapter) or model script (turns); or pass --as KIND',
        ),
      ]),
    };
  const sourceOf = (format: SuiteFormat, hash: string) => ({ format, file: display, hash });
  switch (detected) {
    case 'benchmark': {
      const { benchmarkToSuite } = await import('./benchmark.ts');
      const r = resultOf(
        benchmarkToSuite(file, source.value, source.locate, {
          checkAgent: options.checkAgent !== false,
          plugins: options.plugins,
        }),
      );
      if (r.value === undefined) return { kind: detected, count: 0, diagnostics: relabel(r.diagnostics) };
      const graded = await gradedSuite(r.value, file);
      if (!graded.ok) return { kind: detected, count: 0, diagnostics: relabel([...graded.diagnostics]) };
      const hash = combinedHash([doc.hash, ...graded.files.map(fileHash)]);
      const suite = { ...graded.suite, source: sourceOf(SUITE_FORMAT.benchmark, hash) };
      return { kind: detected, count: r.count, diagnostics: [], loaded: { kind: detected, suite } };
    }
    case 'suite': {
      const { suiteFileToSuite } = await import('./suite-file.ts');
      const r = resultOf(suiteFileToSuite(file, source.value, source.locate, options.plugins));
      if (r.value === undefined) return { kind: detected, count: 0, diagnostics: relabel(r.diagnostics) };
      const graded = await gradedSuite(r.value.suite, file);
      if (!graded.ok) return { kind: detected, count: 0, diagnostics: relabel([...graded.diagnostics]) };
      const read = [...r.value.files.slice(1), ...graded.files];
      const hash = combinedHash([doc.hash, ...read.map(fileHash)]);
      const suite = { ...graded.suite, source: sourceOf(SUITE_FORMAT.suite, hash) };
      return { kind: detected, count: r.count, diagnostics: [], loaded: { kind: detected, suite } };
    }
    case 'task-spec': {
      const { taskSpecToTask } = await import('./task-spec.ts');
      const r = resultOf(taskSpecToTask(file, source.value, source.locate, options.plugins));
      if (r.value === undefined) return { kind: detected, count: 0, diagnostics: relabel(r.diagnostics) };
      const task = r.value;
      const files = [task.rubric].filter((f): f is string => f !== undefined);
      const rubrics: Rubric[] = [];
      for (const f of files) rubrics.push(await loadRubric(f));
      const spec: Suite = {
        schema_version: 1,
        id: task.id,
        ...(task.domain === undefined ? {} : { domain: task.domain }),
        ...(task.description === undefined ? {} : { description: task.description }),
        tasks: [task],
        evaluators: [],
        metrics: [],
        thresholds: {},
        scoring: defaultScoring(),
        rubrics,
      };
      const graded = await gradedSuite(spec, file);
      if (!graded.ok) return { kind: detected, count: 0, diagnostics: relabel([...graded.diagnostics]) };
      const read = [...files, ...graded.files];
      const suite = {
        ...graded.suite,
        source: sourceOf(SUITE_FORMAT['task-spec'], combinedHash([doc.hash, ...read.map(fileHash)])),
      };
      return { kind: detected, count: 1, diagnostics: [], loaded: { kind: detected, suite } };
    }
    case 'rubric': {
      const { rubricFileToRubric } = await import('./rubric-file.ts');
      const r = resultOf(rubricFileToRubric(file, source.value, source.locate));
      return {
        kind: detected,
        count: r.count,
        diagnostics: relabel(r.diagnostics),
        ...(r.value ? { loaded: { kind: detected, rubric: r.value } } : {}),
      };
    }
    case 'harness': {
      const { harnessFileToConfig } = await import('./harness-file.ts');
      const r = resultOf(harnessFileToConfig(file, source.value, source.locate, options.plugins));
      return {
        kind: detected,
        count: r.count,
        diagnostics: relabel(r.diagnostics),
        ...(r.value ? { loaded: { kind: detected, config: r.value } } : {}),
      };
    }
    case 'harbor':
      return {
        kind: detected,
        count: 0,
        diagnostics: relabel([
          located(
            file,
            { line: 0, col: 0 },
            [],
            'a Harbor task is a folder, not a file',
            'the folder that holds task.toml',
          ),
        ]),
      };
    case 'model-script': {
      const { modelScriptFileToScript } = await import('./model-script.ts');
      const r = resultOf(modelScriptFileToScript(file, source.value, source.locate));
      return {
        kind: detected,
        count: r.count,
        diagnostics: relabel(r.diagnostics),
        ...(r.value ? { loaded: { kind: detected, script: r.value } } : {}),
      };
    }
    default: {
      const never: never = detected;
      return never;
    }
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function loadHarborFolder(
  dir: string,
  display: string,
  options: LoadOptions,
): Promise<{ kind: FileKind | undefined; count: number; diagnostics: Diagnostic[]; loaded?: Loaded }> {
  const { harborFolderToSuite } = await import('./harbor.ts');
  const r = harborFolderToSuite(
    dir,
    options.timeoutMultiplier === undefined ? {} : { timeoutMultiplier: options.timeoutMultiplier },
  );
  const diagnostics = r.diagnostics.map((d) => ({ ...d, file: shortPath(d.file) }));
  if (r.suite === undefined) return { kind: 'harbor', count: r.count, diagnostics };
  const suite = {
    ...r.suite,
    source: { format: 'harbor-v1' as const, file: display, hash: r.suite.source?.hash ?? '' },
  };
  return { kind: 'harbor', count: r.count, diagnostics, loaded: { kind: 'harbor', suite } };
}

/** Whether a file is a v0 JSONL dataset (by extension, or a first line with `schema_version`). */
export async function isEvalCaseDataset(path: string): Promise<boolean> {
  assertFile(path);
  return isJsonlDataset(path, await headOf(path));
}

/** Validates any input file and reports what it is; throws `not_found` for a missing file. */
export async function validateFile(path: string, options: LoadOptions = {}): Promise<FileReport> {
  const r = await loadAny(path, options, false);
  return { kind: r.kind, file: path, count: r.count, diagnostics: capDiagnostics(r.diagnostics, path) };
}

function invalid(path: string, diagnostics: readonly Diagnostic[]): HarnessEvalError {
  const capped = capDiagnostics(diagnostics, path);
  return new HarnessEvalError('invalid_input', `${path}: ${diagnostics.length} error(s)`, {
    diagnostics: capped,
    data: { path },
  });
}

async function loadKind(path: string, options: LoadOptions): Promise<Loaded> {
  const r = await loadAny(path, options, true);
  if (r.diagnostics.length > 0 || r.loaded === undefined) throw invalid(path, r.diagnostics);
  return r.loaded;
}

/**
 * Loads any suite-like file (v0 JSONL, benchmark, suite, task spec) as a canonical Suite.
 * Throws HarnessEvalError `invalid_input` with every located problem (up to 50), or `not_found`.
 * @example const suite = await loadSuite('examples/hello-world/datasets/hello-world-v0.jsonl');
 */
export async function loadSuite(path: string, options: LoadOptions = {}): Promise<Suite> {
  const loaded = await loadKind(path, options);
  if ('suite' in loaded) return loaded.suite;
  throw new HarnessEvalError('invalid_input', `${path} is a ${loaded.kind} file, not a suite`, {
    data: { path },
  });
}

/** `loadSuite` that returns `{ ok, value } | { ok, error }` instead of throwing. */
export async function safeLoadSuite(path: string, options: LoadOptions = {}): Promise<Result<Suite>> {
  try {
    return { ok: true, value: await loadSuite(path, options) };
  } catch (error) {
    if (HarnessEvalError.is(error)) return { ok: false, error };
    return { ok: false, error: new HarnessEvalError('internal', `cannot load ${path}`, { cause: error }) };
  }
}

/** Loads a harness config file (adapter options checked against the adapter's schema, in `plugins` if given). */
export async function loadHarnessConfig(
  path: string,
  options: Pick<LoadOptions, 'plugins'> = {},
): Promise<HarnessConfig> {
  const loaded = await loadKind(path, { ...options, format: 'harness' });
  if (loaded.kind === 'harness') return loaded.config;
  throw new HarnessEvalError('internal', 'unreachable: harness expected');
}

/** Loads a model script (the scripted model's answers); throws `invalid_input` with located errors. */
export async function loadModelScript(path: string): Promise<ModelScript> {
  const loaded = await loadKind(path, { format: 'model-script' });
  if (loaded.kind === 'model-script') return loaded.script;
  throw new HarnessEvalError('internal', 'unreachable: model script expected');
}

/** Loads a seed-004 rubric file. */
export async function loadRubric(path: string): Promise<Rubric> {
  const loaded = await loadKind(path, { format: 'rubric' });
  if (loaded.kind === 'rubric') return loaded.rubric;
  throw new HarnessEvalError('internal', 'unreachable: rubric expected');
}

/** Loads a single seed-004 task spec as a Task (refs resolved to absolute paths in `files`). */
export async function loadTaskSpec(path: string, options: Pick<LoadOptions, 'plugins'> = {}): Promise<Task> {
  const loaded = await loadKind(path, { ...options, format: 'task-spec' });
  if (loaded.kind === 'task-spec' && loaded.suite.tasks[0] !== undefined) return loaded.suite.tasks[0];
  throw new HarnessEvalError('internal', 'unreachable: task spec expected');
}
