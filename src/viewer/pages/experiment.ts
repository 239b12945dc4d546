import { OutcomeSchema } from '../../core/run-record.ts';
import { FLAKY_TITLE, flakyDescription, reportFlaky } from '../../reporters/flaky-view.ts';
import { escapeHtml, metricCardsSection, renderPage } from '../../reporters/html/index.ts';
import { experimentChartsSection } from '../../reporters/html/sections/experiment-charts.ts';
import { summarySection } from '../../reporters/html/sections/summary.ts';
import { taskTableSection } from '../../reporters/html/sections/task-table.ts';
import type { ExperimentDocument } from '../../store/documents.ts';
import type { RecordQuery, RecordSummary } from '../../store/types.ts';
import { links } from '../routes.ts';
import { annotationsPageSection } from './annotate-form.ts';
import { type ScreenContext, SERVED } from './context.ts';
import { experimentDocumentById } from './load.ts';
import { pageOf, pager } from './paging.ts';

/** Trials per page: the table stays small at 10,000 trials (traces load when opened). */
export const TRIALS_PER_PAGE = 100;

/** Outcomes, and the rubric/human criteria still waiting, so no figure reads as final while some are. */
function progressSection(experiment: ExperimentDocument & { records: readonly RecordSummary[] }): string {
  const counts = new Map<string, number>();
  for (const r of experiment.records) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
  const pending = experiment.records.reduce((n, r) => n + r.pending_criteria, 0);
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

/** The trial filters of the URL (an unknown outcome selects nothing, as it matches no trial). */
function filterOf(query: URLSearchParams): RecordQuery | undefined {
  const task = query.get('task') ?? '';
  const outcome = query.get('outcome') ?? '';
  const known = OutcomeSchema.safeParse(outcome);
  if (outcome !== '' && !known.success) return undefined;
  return {
    ...(task === '' ? {} : { task }),
    ...(known.success ? { outcome: known.data } : {}),
  };
}

function selected(
  records: readonly RecordSummary[],
  filter: RecordQuery | undefined,
): readonly RecordSummary[] {
  if (filter === undefined) return [];
  return records.filter(
    (r) =>
      (filter.task === undefined || r.task_id === filter.task) &&
      (filter.outcome === undefined || r.outcome === filter.outcome),
  );
}

/** One experiment: metric cards, progress, flaky tasks, charts, and a page of the trial table with traces. */
export async function experimentScreen(
  context: ScreenContext,
  id: string,
  query: URLSearchParams,
): Promise<string> {
  // The document, one summary per trial (cards, charts, flaky tasks, progress) and the full
  // records of the shown page only: a page of a 10,000-trial experiment reads 100 whole records.
  const document = await experimentDocumentById(context.store, id);
  const experiment = { ...document, records: await context.store.listRecordSummaries(document.id) };
  const flaky = reportFlaky(experiment);
  const annotations = await context.store.listAnnotations(document.id);
  const filter = filterOf(query);
  const page = pageOf(selected(experiment.records, filter), query, TRIALS_PER_PAGE);
  const shown =
    filter === undefined || page.items.length === 0
      ? []
      : await context.store.listRecords(document.id, {
          ...filter,
          offset: (page.number - 1) * TRIALS_PER_PAGE,
          limit: TRIALS_PER_PAGE,
        });
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
          taskTableSection(shown, new Set(flaky.map((t) => t.task_id)), (r) => ({
            page: links.trial(experiment.id, r.task_id, r.epoch),
            data: links.trial(experiment.id, r.task_id, r.epoch, 'json'),
          })) +
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
      // No trace is embedded: each loads from its own URL when opened (`open` opens one at once).
      open: Number.isInteger(open) && open >= 0 && open < shown.length ? open : null,
    },
    served: SERVED,
  });
}
