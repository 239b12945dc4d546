import type { Annotation } from '../../core/annotation.ts';
import type { Experiment } from '../../core/experiment.ts';
import type { FlakyTask } from '../../metrics/flaky.ts';
import { FLAKY_TITLE, flakyDescription, reportFlaky } from '../flaky-view.ts';
import { escapeHtml } from './escape.ts';
import { renderPage } from './page.ts';
import { annotationsByRun, annotationsSection } from './sections/annotations.ts';
import { experimentChartsSection } from './sections/experiment-charts.ts';
import { metricCardsSection } from './sections/metric-cards.ts';
import { summarySection } from './sections/summary.ts';
import { taskTableSection } from './sections/task-table.ts';
import { trialData } from './trial-data.ts';

export interface ExperimentHtmlOptions {
  /** Fixed CSP nonce, for byte-identical output in tests. */
  readonly nonce?: string;
  /** Flaky tasks found across stored runs (see `ReportOptions.flaky`). */
  readonly flaky?: readonly FlakyTask[];
  /** People's labels and notes on trials (from the store): shown in a section and in each trace. */
  readonly annotations?: readonly Annotation[];
}

function flakySection(flaky: readonly FlakyTask[]): { id: string; title: string; html: string }[] {
  if (flaky.length === 0) return [];
  return [
    {
      id: 'flaky',
      title: `${FLAKY_TITLE} (${flaky.length})`,
      html: `<ul>${flaky.map((t) => `<li>${escapeHtml(flakyDescription(t))}</li>`).join('')}</ul>`,
    },
  ];
}

/** The whole report for one experiment as one self-contained HTML document. */
export function renderExperimentHtml(experiment: Experiment, options: ExperimentHtmlOptions = {}): string {
  const { harness } = experiment;
  const flaky = reportFlaky(experiment, options.flaky ? { flaky: options.flaky } : {});
  const annotations = options.annotations ?? [];
  const byRun = annotationsByRun(annotations);
  return renderPage({
    title: `${experiment.name ?? experiment.suite.name ?? experiment.suite.id} — ${harness.name} ${harness.version}`,
    subtitle: `HarnessEval experiment ${experiment.id}`,
    sections: [
      { id: 'summary', title: 'Summary', html: summarySection(experiment) },
      { id: 'metrics', title: 'Metrics', html: metricCardsSection(experiment.metrics) },
      ...flakySection(flaky),
      { id: 'charts', title: 'Charts', html: experimentChartsSection(experiment) },
      {
        id: 'tasks',
        title: 'Trials',
        html: taskTableSection(experiment.records, new Set(flaky.map((t) => t.task_id))),
      },
      ...(annotations.length === 0
        ? []
        : [
            {
              id: 'annotations',
              title: 'Annotations',
              html: annotationsSection(annotations, experiment.records),
            },
          ]),
    ],
    data: {
      kind: 'experiment',
      experiment_id: experiment.id,
      trials: experiment.records.map((r) => trialData(r, byRun.get(r.run_id))),
    },
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
  });
}
