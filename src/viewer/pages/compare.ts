import { compareExperiments } from '../../compare/compare.ts';
import { comparisonRecords } from '../../compare/record-needs.ts';
import type { Comparison, FlippedTask } from '../../compare/types.ts';
import { HarnessEvalError } from '../../core/errors.ts';
import type { Experiment } from '../../core/experiment.ts';
import { comparisonChartSections } from '../../reporters/comparison/chart-sections.ts';
import { renderComparisonHtml } from '../../reporters/comparison/html.ts';
import { escapeHtml } from '../../reporters/html/index.ts';
import type { PageSection } from '../../reporters/html/page.ts';
import { links } from '../routes.ts';
import { type ScreenContext, SERVED } from './context.ts';
import { experimentById } from './load.ts';

/** A link to a task's trials in one experiment, opening its first trace. */
function traceLink(experiment: Experiment, task: string, label: string): string {
  return `<a href="${escapeHtml(links.experiment(experiment.id, { task, open: '0' }))}">${escapeHtml(label)}</a>`;
}

/** The flipped tasks of each pair, each linked to its trace in the baseline and in the candidate. */
function traceSections(comparison: Comparison, experiments: readonly Experiment[]): PageSection[] {
  const [baseline] = experiments;
  if (baseline === undefined) return [];
  return comparison.pairs.flatMap((pair, i) => {
    const candidate = experiments[i + 1];
    const flips: [string, FlippedTask][] = [
      ...pair.regressions.map((t): [string, FlippedTask] => ['pass → fail', t]),
      ...pair.improvements.map((t): [string, FlippedTask] => ['fail → pass', t]),
    ];
    if (candidate === undefined || flips.length === 0) return [];
    const items = flips
      .map(
        ([change, t]) =>
          `<li data-flipped="${escapeHtml(t.task_id)}">${escapeHtml(change)} <b>${escapeHtml(t.task_id)}</b>: ` +
          `${traceLink(baseline, t.task_id, `trace in ${baseline.harness.version} (baseline)`)} · ` +
          `${traceLink(candidate, t.task_id, `trace in ${candidate.harness.version}`)} · ` +
          `<a href="${escapeHtml(links.taskTraces(baseline.id, candidate.id, t.task_id))}">both side by side</a></li>`,
      )
      .join('');
    return [
      {
        id: `traces-${i}`,
        title: `Traces of the flipped tasks (${flips.length})`,
        html: `<ul>${items}</ul>`,
      },
    ];
  });
}

/**
 * The comparison of the experiments the URL names (`?id=A&id=B…`, the first the baseline; with
 * `order=oldest-first`, as the experiments list sends, the oldest is).
 */
export async function compareScreen(
  context: ScreenContext,
  ids: readonly string[],
  query: URLSearchParams,
): Promise<string> {
  if (ids.length < 2)
    throw new HarnessEvalError(
      'usage',
      'select two or more experiments to compare (?id=BASELINE&id=CANDIDATE)',
    );
  // Trial records: the comparison and its charts read no output or trace.
  const records = comparisonRecords();
  const experiments: Experiment[] = [];
  for (const id of ids) experiments.push(await experimentById(context.store, id, records));
  if (query.get('order') === 'oldest-first')
    experiments.sort((a, b) => a.created_at.localeCompare(b.created_at));
  const comparison = compareExperiments(experiments);
  return renderComparisonHtml(comparison, {
    served: SERVED,
    charts: comparisonChartSections(comparison, experiments, { taskHref: links.taskTraces }),
    sections: traceSections(comparison, experiments),
  });
}
