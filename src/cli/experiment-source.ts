import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import { readExperimentFile } from '../store/json-io.ts';
import type { ExperimentStore } from '../store/types.ts';

export const DEFAULT_STORE_PATH = '.harnesseval/harnesseval.db';

/**
 * Opens the experiment store. The store module is written on another branch; until it is merged
 * this seam is the only place that needs `await import('../store/index.ts')` + `openStore(path)`.
 */
async function openExperimentStore(path: string): Promise<ExperimentStore> {
  const { openStore } = await import('../store/index.ts');
  return openStore(path, { mustExist: true, readonly: true });
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
