/**
 * Where the examples get their experiments: the harness lineage in `examples/harness-lineage/`
 * (harness configs v0.2.0 … v0.5.0 for the product-dev suite, a seeded simulation whose
 * acceptance tests really run) when it is present, else the fast in-process simulation of
 * `simulated-lineage.ts`. Both are simulations: the numbers demonstrate the tools, they measure
 * no real harness.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Experiment, loadHarnessConfig, loadSuite, runExperiment } from 'harnesseval';
import { LINEAGE, type LineageVersion, lineageSuite, runVersion } from './simulated-lineage.ts';

export type LineageSource = 'auto' | 'lineage' | 'simulated';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LINEAGE_DIR = join(root, 'examples', 'harness-lineage');
const PRODUCT_DEV_SUITE = join(root, 'suites', 'product-dev', 'suite.yaml');

export function lineageAvailable(): boolean {
  return existsSync(join(LINEAGE_DIR, 'v0.2.0.yaml')) && existsSync(PRODUCT_DEV_SUITE);
}

/** Runs the given versions, oldest first, from the chosen source. */
export async function runLineage(
  versions: readonly LineageVersion[],
  options: { readonly source?: LineageSource; readonly epochs?: number } = {},
): Promise<Experiment[]> {
  const source = options.source ?? 'auto';
  const useLineage = source === 'lineage' || (source === 'auto' && lineageAvailable());
  if (!useLineage) {
    const suite = lineageSuite();
    const experiments: Experiment[] = [];
    for (const version of versions) experiments.push(await runVersion(version, suite));
    return experiments;
  }
  const suite = await loadSuite(PRODUCT_DEV_SUITE);
  const experiments: Experiment[] = [];
  for (const version of versions) {
    const file = join(LINEAGE_DIR, `v${version}.yaml`);
    const harness = await loadHarnessConfig(file);
    // The same seed for every version: common random numbers make the comparison about the rates.
    const experiment = await runExperiment({
      suite,
      harness,
      harnessBaseDir: dirname(file),
      settings: { epochs: options.epochs ?? 2, seed: 0, concurrency: 4 },
    });
    // A lineage version carries its release date; the timeline reads like the seed's with it.
    const released = harness.metadata['released'];
    const date = typeof released === 'string' ? released : LINEAGE.find((v) => v.version === version)?.date;
    experiments.push(date ? { ...experiment, created_at: `${date}T09:00:00.000Z` } : experiment);
  }
  return experiments;
}

/** The metrics (in the given order) that every experiment has a value for: no all-"n/a" rows. */
export function metricsWithValues(names: readonly string[], experiments: readonly Experiment[]): string[] {
  return names.filter((name) =>
    experiments.every((e) => e.metrics.some((m) => m.name === name && m.value !== null)),
  );
}
