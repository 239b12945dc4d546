import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import { readExperimentFile } from '../store/json-io.ts';
import { type RecordChoice, readStoredExperiment } from '../store/read-experiment.ts';
import type { ExperimentStore } from '../store/types.ts';
import { openCliStore, storeLocation } from './store-location.ts';

export interface ExperimentRefOptions {
  readonly cwd: string;
  /** `--store`; default `$HARNESSEVAL_STORE`, else `.harnesseval/harnesseval.db`. */
  readonly store?: string | undefined;
  /** Where `HARNESSEVAL_STORE` is read (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Which records of stored experiments to read (default whole). */
  readonly records?: RecordChoice;
}

function locationOf(options: ExperimentRefOptions): string {
  return storeLocation(options.store, { cwd: options.cwd, env: options.env ?? process.env });
}

/** `latest:HARNESS` or `latest:HARNESS@VERSION` -> its parts; undefined for other references. */
export function parseLatestRef(reference: string): { harness: string; version?: string } | undefined {
  if (!reference.startsWith('latest:')) return undefined;
  const rest = reference.slice('latest:'.length);
  const at = rest.lastIndexOf('@');
  const harness = at > 0 ? rest.slice(0, at) : rest;
  const version = at > 0 ? rest.slice(at + 1) : undefined;
  if (harness === '' || version === '') {
    throw new HarnessEvalError('usage', `"${reference}" should be latest:HARNESS or latest:HARNESS@VERSION`);
  }
  return version === undefined ? { harness } : { harness, version };
}

async function fromStore(
  store: ExperimentStore,
  reference: string,
  records: RecordChoice = 'whole',
): Promise<Experiment> {
  const latest = parseLatestRef(reference);
  let id: string;
  if (latest) {
    const summaries = await store.listExperiments({ harness: latest.harness, status: 'completed' });
    const match = summaries.find((s) => latest.version === undefined || s.harness_version === latest.version);
    if (match === undefined) {
      const what = latest.version ? `${latest.harness}@${latest.version}` : latest.harness;
      throw new HarnessEvalError(
        'not_found',
        `no completed experiment of harness "${what}" in the store (see: harnesseval runs list)`,
      );
    }
    id = match.id;
  } else {
    const { resolveExperimentId } = await import('../store/resolve-id.ts');
    id = await resolveExperimentId(store, reference);
  }
  const experiment = await readStoredExperiment(store, id, records);
  if (experiment === undefined)
    throw new HarnessEvalError('not_found', `experiment ${id} vanished from the store`);
  return experiment;
}

/**
 * Experiments named on the command line, in order: exported `FILE.json`s, ids or unique id
 * prefixes, and `latest:HARNESS[@VERSION]` (the newest completed experiment of that harness).
 * The store is opened once, only when some reference needs it.
 */
export async function loadExperimentRefs(
  references: readonly string[],
  options: ExperimentRefOptions,
): Promise<Experiment[]> {
  let store: ExperimentStore | undefined;
  try {
    const experiments: Experiment[] = [];
    for (const reference of references) {
      const file = resolve(options.cwd, reference);
      if (
        !reference.startsWith('latest:') &&
        (reference.toLowerCase().endsWith('.json') || existsSync(file))
      ) {
        if (!existsSync(file)) throw new HarnessEvalError('not_found', `file not found: ${reference}`);
        experiments.push(await readExperimentFile(file, reference));
        continue;
      }
      store ??= await openCliStore(locationOf(options), { mustExist: true, readonly: true });
      experiments.push(await fromStore(store, reference, options.records));
    }
    return experiments;
  } finally {
    await store?.close();
  }
}

/** Opens the store for listing (timeline); the caller closes it. */
export async function openStoreForReading(options: ExperimentRefOptions): Promise<ExperimentStore> {
  return openCliStore(locationOf(options), { mustExist: true, readonly: true });
}
