/**
 * Track one harness lineage across versions (seed 004, "Timeline"): date, version and the
 * metrics that matter, with a sparkline per metric and a * where a version changed a metric
 * significantly against the one before.
 *
 *   npx tsx examples/track-timeline.ts
 */
import { pathToFileURL } from 'node:url';
import { renderTimelineConsole } from '../src/reporters/timeline/index.ts';
import { buildTimeline, type Timeline } from '../src/timeline/timeline.ts';
import { type LineageSource, metricsWithValues, runLineage } from './lineage-sim/lineage-source.ts';
import { LINEAGE } from './lineage-sim/simulated-lineage.ts';

export async function trackTimeline(
  options: { readonly source?: LineageSource } = {},
): Promise<{ timeline: Timeline; text: string }> {
  const experiments = await runLineage(
    LINEAGE.map((v) => v.version),
    options,
  );
  const timeline = buildTimeline(experiments, {
    metrics: metricsWithValues(
      [
        'hitl_unplanned',
        'first_pass_approval_rate',
        'cost_per_task',
        'functional_completeness',
        'success_rate',
      ],
      experiments,
    ),
  });
  return { timeline, text: renderTimelineConsole(timeline) };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write((await trackTimeline()).text);
}
