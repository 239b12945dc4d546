import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Annotation } from '../core/annotation.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import { readExperimentExport, readExperimentFile } from '../store/json-io.ts';
import { openCliStore, shownStore, storeLocation } from './store-location.ts';

export interface ExperimentSourceOptions {
  readonly cwd: string;
  /** `--store`: a SQLite file or postgres:// URL; default `$HARNESSEVAL_STORE`, else `.harnesseval/harnesseval.db`. */
  readonly store?: string | undefined;
  /** Where `HARNESSEVAL_STORE` is read (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv | undefined;
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
  const location = storeLocation(options.store, { cwd: options.cwd, env: options.env ?? process.env });
  const store = await openCliStore(location, { mustExist: true, readonly: true });
  try {
    const { resolveExperimentId } = await import('../store/resolve-id.ts');
    const experiment = await store.getExperiment(await resolveExperimentId(store, reference));
    if (experiment === undefined) {
      throw new HarnessEvalError(
        'not_found',
        `no experiment "${reference}" in ${shownStore(location)} (see: harnesseval runs list)`,
      );
    }
    return experiment;
  } finally {
    await store.close();
  }
}

/**
 * The annotations on an experiment: those the store holds when it is named by id, those written
 * in the file when it is an export (numbered 1, 2, … in the file's order).
 */
export async function storedAnnotations(
  reference: string,
  experimentId: string,
  options: ExperimentSourceOptions,
): Promise<Annotation[]> {
  const file = resolve(options.cwd, reference);
  if (reference.toLowerCase().endsWith('.json') || existsSync(file)) {
    const { annotations } = await readExperimentExport(file, reference);
    return annotations.map((a, index) => ({ ...a, id: index + 1, experiment_id: experimentId }));
  }
  const location = storeLocation(options.store, { cwd: options.cwd, env: options.env ?? process.env });
  const store = await openCliStore(location, { mustExist: true, readonly: true });
  try {
    return await store.listAnnotations(experimentId);
  } finally {
    await store.close();
  }
}
