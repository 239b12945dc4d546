import { compareExperiments } from '../../compare/compare.ts';
import { costScoreData } from '../../compare/pareto.ts';
import { taskScorePairs } from '../../compare/task-scores.ts';
import type { Comparison, FlippedTask } from '../../compare/types.ts';
import { HarnessEvalError } from '../../core/errors.ts';
import type { Experiment } from '../../core/experiment.ts';
import { costScoreChart } from '../../reporters/comparison/cost-score.ts';
import { renderComparisonHtml } from '../../reporters/comparison/html.ts';
import { taskScatter } from '../../reporters/comparison/task-scatter.ts';
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

/** Per pair a scatter of the tasks' scores (each point opens both traces), and one cost–score chart. */
function chartSections(comparison: Comparison, experiments: readonly Experiment[]): PageSection[] {
  const [baseline, ...candidates] = experiments;
  if (baseline === undefined) return [];
  const labels = comparison.experiments.map((e) => e.label);
  const scatters = candidates
    .map(
      (candidate, i) =>
        `<figure data-pair="${i}">${taskScatter(taskScorePairs(baseline, candidate), {
          baselineLabel: labels[0] ?? baseline.id,
          candidateLabel: labels[i + 1] ?? candidate.id,
          href: (task) => links.taskTraces(baseline.id, candidate.id, task),
        })}</figure>`,
    )
    .join('');
  return [
    { id: 'task-scatter', title: 'Score per task', html: `<div class="charts">${scatters}</div>` },
    {
      id: 'cost-score',
      title: 'Cost and score',
      html: `<div class="charts"><figure>${costScoreChart(costScoreData(experiments))}</figure></div>`,
    },
  ];
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
  const experiments: Experiment[] = [];
  for (const id of ids) experiments.push(await experimentById(context.store, id));
  if (query.get('order') === 'oldest-first')
    experiments.sort((a, b) => a.created_at.localeCompare(b.created_at));
  const comparison = compareExperiments(experiments);
  return renderComparisonHtml(comparison, {
    served: SERVED,
    charts: chartSections(comparison, experiments),
    sections: traceSections(comparison, experiments),
  });
}
