import type { Experiment } from '../../core/experiment.ts';
import type { RunRecord } from '../../core/run-record.ts';
import { FLAKY_TITLE, flakyDescription, reportFlaky } from '../../reporters/flaky-view.ts';
import { escapeHtml, metricCardsSection, renderPage } from '../../reporters/html/index.ts';
import { annotationsByRun } from '../../reporters/html/sections/annotations.ts';
import { experimentChartsSection } from '../../reporters/html/sections/experiment-charts.ts';
import { summarySection } from '../../reporters/html/sections/summary.ts';
import { taskTableSection } from '../../reporters/html/sections/task-table.ts';
import { trialData } from '../../reporters/html/trial-data.ts';
import { links } from '../routes.ts';
import { annotationsPageSection } from './annotate-form.ts';
import { type ScreenContext, SERVED } from './context.ts';
import { experimentById } from './load.ts';
import { pageOf, pager } from './paging.ts';

/** Trials per page: the table and the traces embedded for them stay small at 10,000 trials. */
export const TRIALS_PER_PAGE = 100;

/** Outcomes, and the rubric/human criteria still waiting, so no figure reads as final while some are. */
function progressSection(experiment: Experiment): string {
  const counts = new Map<string, number>();
  for (const r of experiment.records) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
  const pending = experiment.records
    .flatMap((r) => r.criteria)
    .filter((c) => c.status === 'pending' && c.verification !== 'automated').length;
  const decided = experiment.records.length - (counts.get('pending') ?? 0);
  const parts = [...counts.entries()].map(([outcome, n]) => `${n} ${outcome}`).join(', ');
  const grading =
    pending === 0
      ? '<p>No criterion waits for a grade.</p>'
      : `<p class="fail"><b>${pending} rubric or human criteria are pending</b>: the scores and rates above count only decided trials. <a href="${escapeHtml(links.grading(experiment.id))}">Grade them</a>.</p>`;
  return (
    `<p data-progress>${experiment.records.length} trials: ${decided} decided, ${counts.get('pending') ?? 0} pending` +
    `${parts === '' ? '' : ` (${escapeHtml(parts)})`}; status ${escapeHtml(experiment.status)}.` +
    ` <a href="${escapeHtml(links.live(experiment.id))}">${experiment.status === 'running' ? 'Follow it live' : 'Live view'}</a></p>${grading}`
  );
}

function selected(records: readonly RunRecord[], query: URLSearchParams): readonly RunRecord[] {
  const task = query.get('task') ?? '';
  const outcome = query.get('outcome') ?? '';
  return records.filter(
    (r) => (task === '' || r.task_id === task) && (outcome === '' || r.outcome === outcome),
  );
}

/** One experiment: metric cards, progress, flaky tasks, charts, and a page of the trial table with traces. */
export async function experimentScreen(
  context: ScreenContext,
  id: string,
  query: URLSearchParams,
): Promise<string> {
  const experiment = await experimentById(context.store, id);
  const flaky = reportFlaky(experiment);
  const annotations = await context.store.listAnnotations(experiment.id);
  const byRun = annotationsByRun(annotations);
  const page = pageOf(selected(experiment.records, query), query, TRIALS_PER_PAGE);
  const open = Number.parseInt(query.get('open') ?? '', 10);
  const task = query.get('task') ?? '';
  const scope =
    task === ''
      ? ''
      : `<p>Trials of task <b>${escapeHtml(task)}</b> only. <a href="${escapeHtml(links.experiment(experiment.id))}">All trials</a></p>`;
  const { harness } = experiment;
  return renderPage({
    title: `${experiment.name ?? experiment.suite.name ?? experiment.suite.id} — ${harness.name} ${harness.version}`,
    subtitle: `HarnessEval experiment ${experiment.id}`,
    sections: [
      { id: 'summary', title: 'Summary', html: summarySection(experiment) },
      { id: 'progress', title: 'Progress', html: progressSection(experiment) },
      { id: 'metrics', title: 'Metrics', html: metricCardsSection(experiment.metrics) },
      ...(flaky.length === 0
        ? []
        : [
            {
              id: 'flaky',
              title: `${FLAKY_TITLE} (${flaky.length})`,
              html: `<ul>${flaky.map((t) => `<li>${escapeHtml(flakyDescription(t))}</li>`).join('')}</ul>`,
            },
          ]),
      { id: 'charts', title: 'Charts', html: experimentChartsSection(experiment) },
      {
        id: 'tasks',
        title: 'Trials',
        html:
          scope +
          taskTableSection(page.items, new Set(flaky.map((t) => t.task_id))) +
          pager(page, query, links.experiment(experiment.id)) +
          `<p><a href="${escapeHtml(links.timeline(harness.name, experiment.suite.id))}">Timeline of ${escapeHtml(harness.name)} on ${escapeHtml(experiment.suite.id)}</a></p>`,
      },
      annotationsPageSection({
        experimentId: experiment.id,
        annotations,
        records: experiment.records,
        trials: page.items,
        token: context.writeToken,
        chosen: query.get('annotated') ?? '',
      }),
    ],
    data: {
      kind: 'experiment',
      experiment_id: experiment.id,
      trials: page.items.map((r) => trialData(r, byRun.get(r.run_id))),
      open: Number.isInteger(open) && open >= 0 && open < page.items.length ? open : null,
    },
    served: SERVED,
  });
}
