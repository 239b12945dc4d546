import { join } from 'node:path';
import type { Experiment } from '../../src/core/experiment.ts';
import { openStore } from '../../src/store/index.ts';
import { experimentOf, type TrialSpec } from './comparison.ts';

/**
 * Five versions of one lineage with known cost–score positions, for the compare screen's charts:
 * v1.0.0 (cheapest) and v1.1.0 (best) are the Pareto frontier, v1.2.0 is dominated, v1.3.0 has
 * unpriced calls (incomplete), v1.4.0 has no cost at all (missing). v1.1.0 against v1.0.0 pairs
 * tasks t1–t4 (t5 only ran in v1.0.0): two above the diagonal, one below, one on it.
 */
export interface ChartStore {
  readonly path: string;
  readonly ids: readonly [string, string, string, string, string];
}

function version(id: string, v: string, day: number, scores: readonly number[], cost?: number): Experiment {
  const trials: TrialSpec[] = scores.map((overall, i) => ({
    task: `t${i + 1}`,
    overall,
    pass: overall >= 0.5,
    ...(cost === undefined ? {} : { cost }),
  }));
  return experimentOf(id, trials, { version: v, createdAt: `2026-11-0${day}T10:00:00.000Z` });
}

export async function chartStore(dir: string): Promise<ChartStore> {
  const path = join(dir, 'charts.db');
  const partial = version('exp-v13', '1.3.0', 4, [0.9, 0.9, 0.9, 0.9], 0.005);
  const experiments = [
    version('exp-v10', '1.0.0', 1, [0.2, 0.4, 0.6, 0.8, 0.5], 0.01),
    version('exp-v11', '1.1.0', 2, [0.9, 0.3, 0.6, 1.0], 0.03),
    version('exp-v12', '1.2.0', 3, [0.5, 0.5, 0.5, 0.5], 0.04),
    {
      ...partial,
      metrics: partial.metrics.map((m) =>
        m.name === 'cost_per_task'
          ? { ...m, details: { ...m.details, unpriced_calls: 2, partial_trials: 1 } }
          : m,
      ),
    },
    version('exp-v14', '1.4.0', 5, [0.7, 0.7, 0.7, 0.7]),
  ];
  const store = await openStore(path);
  for (const e of experiments) await store.createExperiment(e);
  await store.close();
  return { path, ids: ['exp-v10', 'exp-v11', 'exp-v12', 'exp-v13', 'exp-v14'] };
}
