import { comparisonRecords } from '../../compare/record-needs.ts';
import type { Experiment } from '../../core/experiment.ts';
import { escapeHtml, renderPage } from '../../reporters/html/index.ts';
import { versionLabel } from '../../reporters/timeline/headings.ts';
import { renderTimelineHtml } from '../../reporters/timeline/html.ts';
import { readStoredExperiment } from '../../store/read-experiment.ts';
import { buildTimeline } from '../../timeline/timeline.ts';
import { links } from '../routes.ts';
import { type ScreenContext, SERVED } from './context.ts';

/** Without a harness and suite: every lineage in the store, each a link to its timeline. */
async function lineagesScreen(context: ScreenContext): Promise<string> {
  const summaries = await context.store.listExperiments({ status: 'completed' });
  const lineages = new Map<string, { harness: string; suite: string; runs: number }>();
  for (const s of summaries) {
    const key = JSON.stringify([s.harness_name, s.suite_id]);
    const entry = lineages.get(key) ?? { harness: s.harness_name, suite: s.suite_id, runs: 0 };
    lineages.set(key, { ...entry, runs: entry.runs + 1 });
  }
  const items = [...lineages.values()]
    .sort((a, b) => a.harness.localeCompare(b.harness) || a.suite.localeCompare(b.suite))
    .map(
      (l) =>
        `<li><a href="${escapeHtml(links.timeline(l.harness, l.suite))}">${escapeHtml(l.harness)} on ${escapeHtml(l.suite)}</a> (${l.runs} completed runs)</li>`,
    )
    .join('');
  return renderPage({
    title: 'Timelines',
    subtitle: 'Each harness lineage on each suite',
    sections: [
      {
        id: 'lineages',
        title: 'Lineages',
        html: items === '' ? '<p class="none">No completed experiments yet.</p>' : `<ul>${items}</ul>`,
      },
    ],
    served: SERVED,
  });
}

/**
 * One lineage by version (the timeline reporter's page): a chart point opens its experiment, a step
 * between two points their comparison, and a list repeats both links.
 */
export async function timelineScreen(
  context: ScreenContext,
  harness?: string,
  suite?: string,
): Promise<string> {
  if (harness === undefined || suite === undefined) return lineagesScreen(context);
  const summaries = await context.store.listExperiments({ status: 'completed', harness, suite });
  const records = comparisonRecords();
  const experiments: Experiment[] = [];
  for (const s of summaries) {
    const experiment = await readStoredExperiment(context.store, s.id, records);
    if (experiment !== undefined) experiments.push(experiment);
  }
  const timeline = buildTimeline(experiments);
  const steps = timeline.points
    .map((p, i) => {
      const previous = timeline.points[i - 1];
      const step =
        previous === undefined
          ? ''
          : ` · <a href="${escapeHtml(links.compare([previous.experiment_id, p.experiment_id]))}">compare with ${escapeHtml(versionLabel(previous.version))}</a>`;
      return `<li><a href="${escapeHtml(links.experiment(p.experiment_id))}">${escapeHtml(versionLabel(p.version))}</a> (${escapeHtml(p.date)})${step}</li>`;
    })
    .join('');
  return renderTimelineHtml(timeline, {
    served: SERVED,
    links: { experiment: (id) => links.experiment(id), step: (a, b) => links.compare([a, b]) },
    sections: [{ id: 'versions', title: 'Open a version or a step', html: `<ul>${steps}</ul>` }],
  });
}
