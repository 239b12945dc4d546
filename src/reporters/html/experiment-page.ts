import type { Experiment } from '../../core/experiment.ts';
import { renderPage } from './page.ts';
import { experimentChartsSection } from './sections/experiment-charts.ts';
import { metricCardsSection } from './sections/metric-cards.ts';
import { summarySection } from './sections/summary.ts';
import { taskTableSection } from './sections/task-table.ts';
import { trialData } from './trial-data.ts';

export interface ExperimentHtmlOptions {
  /** Fixed CSP nonce, for byte-identical output in tests. */
  readonly nonce?: string;
}

/** The whole report for one experiment as one self-contained HTML document. */
export function renderExperimentHtml(experiment: Experiment, options: ExperimentHtmlOptions = {}): string {
  const { harness } = experiment;
  return renderPage({
    title: `${experiment.name ?? experiment.suite.name ?? experiment.suite.id} — ${harness.name} ${harness.version}`,
    subtitle: `HarnessEval experiment ${experiment.id}`,
    sections: [
      { id: 'summary', title: 'Summary', html: summarySection(experiment) },
      { id: 'metrics', title: 'Metrics', html: metricCardsSection(experiment.metrics) },
      { id: 'charts', title: 'Charts', html: experimentChartsSection(experiment) },
      { id: 'tasks', title: 'Trials', html: taskTableSection(experiment.records) },
    ],
    data: { kind: 'experiment', experiment_id: experiment.id, trials: experiment.records.map(trialData) },
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
  });
}
