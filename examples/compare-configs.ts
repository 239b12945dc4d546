/**
 * Compare two harness configurations on the same suite (seed 004, "Comparison"): the seed's
 * table plus paired statistics — is v0.4.0 really better than v0.3.1, or is it noise?
 *
 *   npx tsx examples/compare-configs.ts
 */
import { pathToFileURL } from 'node:url';
import { compareExperiments } from '../src/compare/index.ts';
import type { Comparison } from '../src/compare/types.ts';
import { renderComparisonConsole } from '../src/reporters/comparison/index.ts';
import { type LineageSource, metricsWithValues, runLineage } from './lineage-sim/lineage-source.ts';

export async function compareConfigs(
  options: { readonly source?: LineageSource } = {},
): Promise<{ comparison: Comparison; text: string }> {
  const [baseline, candidate] = await runLineage(['0.3.1', '0.4.0'], options);
  if (baseline === undefined || candidate === undefined) throw new Error('the lineage did not run');
  const comparison = compareExperiments([baseline, candidate], {
    metrics: metricsWithValues(
      [
        'prompts_unplanned',
        'hitl_unplanned',
        'first_pass_approval_rate',
        'cost_per_task',
        'human_time_min',
        // The lineage's rubric criteria stay pending without a judge, so its success_rate is
        // mostly n/a; the share of automated acceptance criteria passed is known either way.
        'functional_completeness',
        'success_rate',
      ],
      [baseline, candidate],
    ),
    // A CI-style gate: success_rate may not get significantly more than 5% worse.
    thresholds: { success_rate: { max_regression: 0.05, require_significant: true } },
  });
  return { comparison, text: renderComparisonConsole(comparison) };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { comparison, text } = await compareConfigs();
  process.stdout.write(text);
  process.exitCode = comparison.violations.length > 0 ? 1 : 0;
}
