import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessEvalError } from '../../core/errors.ts';
import { renderList, renderShow, safe, summarize } from '../../reporters/runs-view.ts';
import {
  experimentToJson,
  exportExperiment,
  readExperimentExport,
  storeExperiment,
} from '../../store/json-io.ts';
import { storeKind } from '../../store/location.ts';
import { readStoredExperiment } from '../../store/read-experiment.ts';
import { resolveExperimentId } from '../../store/resolve-id.ts';
import type { ExperimentStore } from '../../store/types.ts';
import { type CliIO, paint, useColor, writeLine } from '../io.ts';
import { chosenStore, openCliStore, shownStore, storeLocation } from '../store-location.ts';

export interface StoreChoice {
  readonly store?: string | undefined;
}

/**
 * Opens the store for one command and always closes it; `use` gets the store's name for
 * messages (a URL without its password). Only `import` may create a new store; `read` commands
 * open it read-only (a store in a folder they may not write still reads).
 */
export async function withStore<T>(
  io: CliIO,
  choice: StoreChoice,
  mode: 'read' | 'existing' | 'create',
  use: (store: ExperimentStore, shown: string) => Promise<T>,
): Promise<T> {
  const location = storeLocation(choice.store, io);
  const store = await openCliStore(location, {
    env: io.env,
    mustExist: mode !== 'create',
    ...(mode === 'read' ? { readonly: true } : {}),
  });
  try {
    return await use(store, shownStore(location));
  } finally {
    await store.close();
  }
}

/** Resolves an id or prefix, naming the store in the message when nothing matches. */
export async function resolveId(store: ExperimentStore, id: string, path: string): Promise<string> {
  try {
    return await resolveExperimentId(store, id);
  } catch (error) {
    if (HarnessEvalError.is(error) && error.code === 'not_found') {
      throw new HarnessEvalError('not_found', `${error.message} in ${path} (see \`harnesseval runs list\`)`, {
        cause: error,
      });
    }
    throw error;
  }
}

export async function listRuns(
  io: CliIO,
  options: StoreChoice & {
    harness?: string | undefined;
    suite?: string | undefined;
    limit?: number | undefined;
    format: 'table' | 'json';
  },
): Promise<void> {
  const location = storeLocation(options.store, io);
  const path = shownStore(location);
  const list = await withStore(io, options, 'read', (store) =>
    store.listExperiments({
      ...(options.harness === undefined ? {} : { harness: options.harness }),
      ...(options.suite === undefined ? {} : { suite: options.suite }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
    }),
  ).catch((error: unknown) => {
    // No store yet (no file, or a database without our tables) is an empty list, not an error.
    if (HarnessEvalError.is(error) && error.code === 'not_found' && !existsSync(location)) return undefined;
    throw error;
  });
  if (list === undefined) {
    if (options.format === 'json') writeLine(io.stdout, '[]');
    else writeLine(io.stdout, `No experiments yet (no store at ${safe(path)}).`);
    return;
  }
  if (options.format === 'json') writeLine(io.stdout, JSON.stringify(list, null, 2));
  else if (list.length === 0) writeLine(io.stdout, `No experiments match in ${safe(path)}.`);
  else writeLine(io.stdout, renderList(list));
}

export async function showRun(
  io: CliIO,
  options: StoreChoice & { id: string; format: 'table' | 'json' },
): Promise<void> {
  const { experiment, annotations } = await withStore(io, options, 'read', async (store, path) => {
    const id = await resolveId(store, options.id, path);
    // Trial records: the counts, error kinds and overall score read no output or trace.
    const experiment = await readStoredExperiment(store, id, { trial: () => true });
    return { experiment, annotations: await store.listAnnotations(id) };
  });
  if (experiment === undefined)
    throw new HarnessEvalError('not_found', `experiment ${options.id} vanished while reading`);
  if (options.format === 'json')
    writeLine(io.stdout, JSON.stringify({ ...summarize(experiment), annotations }, null, 2));
  else writeLine(io.stdout, renderShow(experiment, paint(useColor(io)), annotations));
}

export async function exportRun(
  io: CliIO,
  options: StoreChoice & { id: string; output?: string | undefined },
): Promise<void> {
  await withStore(io, options, 'read', async (store, path) => {
    const id = await resolveId(store, options.id, path);
    if (options.output === undefined || options.output === '-') {
      const experiment = await store.getExperiment(id);
      if (experiment === undefined)
        throw new HarnessEvalError('not_found', `experiment ${id} vanished while reading`);
      const annotations = await store.listAnnotations(id);
      io.stdout.write(experimentToJson(experiment, { env: io.env, annotations }));
      return;
    }
    const file = resolve(io.cwd, options.output);
    const experiment = await exportExperiment(store, id, file, { env: io.env });
    writeLine(
      io.stderr,
      `Exported ${safe(id)} (${experiment.records.length} records) to ${safe(options.output)}`,
    );
  });
}

export async function importRun(
  io: CliIO,
  options: StoreChoice & { file: string; replace: boolean },
): Promise<void> {
  const file = resolve(io.cwd, options.file);
  // The file is read and checked before the store is opened, so a mistyped path or a bad file
  // does not leave a new, empty store behind.
  if (!existsSync(file)) throw new HarnessEvalError('not_found', `no such file: ${options.file}`);
  const { experiment, annotations } = await readExperimentExport(file, options.file);
  await withStore(io, options, 'create', async (store, path) => {
    try {
      await storeExperiment(store, experiment, { replace: options.replace, annotations });
      const notes = annotations.length === 0 ? '' : `, ${annotations.length} annotations`;
      writeLine(
        io.stdout,
        `Imported ${safe(experiment.id)} (${experiment.records.length} records${notes}) into ${safe(path)}`,
      );
    } catch (error) {
      if (HarnessEvalError.is(error) && error.data['reason'] === 'exists') {
        throw new HarnessEvalError(
          'invalid_input',
          `${error.message} (${path}); pass --replace to overwrite it`,
          {
            cause: error,
          },
        );
      }
      // The file parsed but its content does not hold together (a record of another experiment):
      // say which file.
      if (HarnessEvalError.is(error) && error.code === 'invalid_input')
        throw new HarnessEvalError('invalid_input', `${options.file}: ${error.message}`, { cause: error });
      throw error;
    }
  });
}

export async function deleteRun(io: CliIO, options: StoreChoice & { id: string }): Promise<void> {
  const location = storeLocation(options.store, io);
  await withStore(io, options, 'existing', async (store, path) => {
    const id = await resolveId(store, options.id, path);
    const summary = (await store.listExperiments({ idPrefix: id })).find((s) => s.id === id);
    // A queued experiment's jobs go first: workers holding one stop its trial, none takes another.
    const document = storeKind(location) === 'postgres' ? await store.getExperimentDocument(id) : undefined;
    const jobs =
      document?.metadata['queue'] === undefined
        ? 0
        : await (await import('./runs-queue-actions.ts')).deleteQueuedJobs(io, location, document);
    await store.deleteExperiment(id);
    const records = summary === undefined ? '' : ` (${summary.records} records)`;
    const queued = jobs === 0 ? '' : `, and its ${jobs} jobs from the queue`;
    writeLine(io.stdout, `Deleted ${safe(id)}${records} from ${safe(path)}${queued}`);
  });
}

/**
 * `runs cleanup`: end what killed runs left running, and mark their experiments interrupted; with
 * `--queue`, also delete the job rows the queue no longer needs.
 */
export async function cleanupRuns(
  io: CliIO,
  options: StoreChoice & { queue?: string | true | undefined },
): Promise<void> {
  const { cleanupStore } = await import('../../runner/cleanup.ts');
  if (typeof options.queue === 'string' && options.store !== undefined && options.store !== options.queue)
    throw new HarnessEvalError(
      'usage',
      '--queue URL names the store itself; give --store or --queue URL, not both',
    );
  const choice = typeof options.queue === 'string' ? { store: options.queue } : options;
  const location = storeLocation(choice.store, io);
  if (options.queue !== undefined && storeKind(location) !== 'postgres')
    throw new HarnessEvalError(
      'usage',
      `--queue needs a PostgreSQL store (a postgres:// URL), not ${shownStore(chosenStore(choice.store, io.env))}`,
    );
  let said = false;
  const say = (line: string) => {
    said = true;
    writeLine(io.stdout, line);
  };
  const path = await withStore(io, choice, 'existing', async (store, path) => {
    const report = await cleanupStore(store);
    for (const [id, { recorded, killed }] of report.orphans)
      say(
        `${safe(id)}: a killed run had recorded ${recorded} process group(s); ${killed === 0 ? 'none was still running' : `ended ${killed} process(es) still running`}`,
      );
    for (const { id, suiteFile } of report.interrupted) {
      const file = suiteFile === undefined ? 'SUITE_FILE' : safe(suiteFile);
      say(
        `${safe(id)}: its run is gone; marked interrupted (resume with: npx harnesseval run ${file} --resume ${safe(id)} --store ${safe(path)}, plus the --harness it ran with, if any)`,
      );
    }
    return path;
  });
  if (options.queue !== undefined)
    said = (await (await import('./runs-queue-actions.ts')).cleanupQueueRows(io, location)) || said;
  if (!said) writeLine(io.stdout, `Nothing to clean up in ${safe(path)}.`);
}
