import { HarnessEvalError } from '../core/errors.ts';
import type { ExperimentStore } from './types.ts';

/**
 * The full id of the experiment named by `idOrPrefix`: an exact id wins, otherwise a unique
 * prefix (as git accepts short hashes). No match is `not_found`; several are `invalid_input`.
 */
export async function resolveExperimentId(store: ExperimentStore, idOrPrefix: string): Promise<string> {
  if (idOrPrefix === '') throw new HarnessEvalError('invalid_input', 'an experiment id is required');
  // Summaries only (no records), so listing every match stays cheap.
  const matches = await store.listExperiments({ idPrefix: idOrPrefix });
  if (matches.some((m) => m.id === idOrPrefix)) return idOrPrefix;
  const [only] = matches;
  if (only === undefined) {
    throw new HarnessEvalError('not_found', `no experiment matches "${idOrPrefix}"`, {
      data: { experimentId: idOrPrefix },
    });
  }
  if (matches.length === 1) return only.id;
  const shown = matches.slice(0, 5).map((m) => m.id);
  const more = matches.length > 5 ? ', ...' : '';
  throw new HarnessEvalError(
    'invalid_input',
    `"${idOrPrefix}" matches several experiments: ${shown.join(', ')}${more}`,
    {
      data: { experimentId: idOrPrefix, matches: shown },
    },
  );
}
