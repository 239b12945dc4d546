import { dirname } from 'node:path';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { Suite } from '../core/suite.ts';
import { detectDocumentKind, hasDocumentExtension } from '../formats/detect.ts';
import type { LoadOptions } from '../formats/load.ts';
import { readDocument } from '../formats/read-file.ts';
import { parseYamlSource } from '../formats/yaml-source.ts';
import { loadPlugin } from './load.ts';
import { copyPluginSet, defaultPlugins, type PluginSet } from './set.ts';

/**
 * False when the text cannot hold a `plugins:` key: YAML and JSON write a key's letters as they are
 * unless they escape them (`\u0067`, `\x67`, an escaped line break), and folding a key over lines
 * puts a space in it. The file is then not parsed here before its load parses it: a queue worker
 * loads each experiment's suite, and for a 4,000-test suite this first parse was a fifth of the
 * load (bench/README.md, queue workers).
 */
function mayNamePlugins(text: string): boolean {
  return text.includes('plugins') || text.includes('\\');
}

/**
 * Loads the plugin modules a suite or benchmark file names in `plugins:` (paths relative to the
 * file), as `--plugin` does, so that the names they register pass when the file is checked. It
 * must run before the file loads: the formats check names against the registries and never load
 * plugin code themselves. A file that is missing, unreadable or not a suite or benchmark is left
 * to the loader, which reports it with its location; so is a `plugins:` value of the wrong type.
 * The modules register into `plugins` (the default set unless given); load the file with the same
 * set (`loadSuite(file, { plugins })`). Returns what was registered (`evaluator word_limit`, …).
 */
export async function loadFilePlugins(file: string, plugins: PluginSet = defaultPlugins): Promise<string[]> {
  if (!hasDocumentExtension(file)) return [];
  let text: string;
  try {
    const document = readDocument(file);
    if (document.diagnostics.length > 0) return [];
    text = document.text;
  } catch {
    return [];
  }
  if (!mayNamePlugins(text)) return [];
  const source = parseYamlSource(file, text);
  const kind = detectDocumentKind(source.value);
  if (kind !== 'suite' && kind !== 'benchmark') return [];
  const list = (source.value as Record<string, unknown>)['plugins'];
  if (!Array.isArray(list)) return [];
  const registered: string[] = [];
  for (const [i, entry] of list.entries()) {
    if (typeof entry !== 'string' || entry === '') continue;
    try {
      registered.push(...(await loadPlugin(entry, dirname(file), plugins)));
    } catch (error) {
      const { line, col } = source.locate(['plugins', i]);
      throw new HarnessEvalError(
        'invalid_config',
        `${file}:${line}:${col}: plugins[${i}]: ${errorMessage(error)}`,
        {
          cause: error,
          data: { file, plugin: entry },
        },
      );
    }
  }
  return registered;
}

/**
 * A suite or benchmark file loaded with the names its `plugins:` modules register in `plugins`
 * (what a queue worker does for each experiment it takes).
 */
export async function loadSuiteWithPlugins(
  file: string,
  plugins: PluginSet,
  options: Omit<LoadOptions, 'plugins'> = {},
): Promise<Suite> {
  await loadFilePlugins(file, plugins);
  const { loadSuite } = await import('../formats/load.ts');
  return loadSuite(file, { ...options, plugins });
}

/**
 * The suite an experiment ran, loaded again from its file (grading needs its rubrics and
 * scoring), with the names its `plugins:` modules register: into `plugins`, or a fresh copy of
 * the default set, so that suites whose modules give one name different meanings can be loaded
 * side by side (the viewer serves every experiment of a store).
 */
export async function loadExperimentSuite(
  experiment: Pick<Experiment, 'id' | 'suite'>,
  plugins: PluginSet = copyPluginSet(defaultPlugins),
): Promise<Suite> {
  if (experiment.suite.file === undefined)
    throw new HarnessEvalError('not_found', `experiment ${experiment.id} does not name its suite file`);
  return loadSuiteWithPlugins(experiment.suite.file, plugins);
}
