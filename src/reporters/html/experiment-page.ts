import type { Annotation } from '../../core/annotation.ts';
import type { Experiment } from '../../core/experiment.ts';
import type { FlakyTask } from '../../metrics/flaky.ts';
import { FLAKY_TITLE, flakyDescription, reportFlaky } from '../flaky-view.ts';
import { escapeHtml } from './escape.ts';
import { renderPage } from './page.ts';
import { type AnnotatedTrial, annotationsByRun, annotationsSection } from './sections/annotations.ts';
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
  /** A running viewer's origin (see `ReportOptions.viewerOrigin`): the report links into it. */
  readonly viewerOrigin?: string;
}

/** Links to this experiment and its lineage in a running viewer (paths as the viewer's routes spell them). */
function viewerSection(
  experiment: Experiment,
  origin: string,
): { id: string; title: string; html: string }[] {
  const page = `${origin}/experiments/${encodeURIComponent(experiment.id)}`;
  const timeline = `${origin}/timeline?${new URLSearchParams({ harness: experiment.harness.name, suite: experiment.suite.id })}`;
  return [
    {
      id: 'viewer',
      title: 'In the viewer',
      html:
        `<p data-viewer>A viewer was running when this report was written: <a href="${escapeHtml(page)}">open this experiment</a> ` +
        `or <a href="${escapeHtml(timeline)}">its timeline</a> there (the links work while <code>harnesseval view</code> runs on this machine).</p>`,
    },
  ];
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
  const flaky = reportFlaky(experiment, options.flaky ? { flaky: options.flaky } : {});
  const byRun = annotationsByRun(options.annotations ?? []);
  return experimentPage(experiment, options, {
    flaky,
    summary: summarySection(experiment),
    charts: experimentChartsSection(experiment),
    tasks: taskTableSection(experiment.records, new Set(flaky.map((t) => t.task_id))),
    annotated: experiment.records,
    trials: experiment.records.map((r) => trialData(r, byRun.get(r.run_id))),
  });
}

/** The sections' markup and the trials' data, made from the records (or a fold of them) by the caller. */
export interface ExperimentPageParts {
  readonly flaky: readonly FlakyTask[];
  readonly summary: string;
  readonly charts: string;
  readonly tasks: string;
  /** The trials the annotations section names. */
  readonly annotated: readonly AnnotatedTrial[];
  readonly trials: readonly unknown[];
}

export function experimentPage(
  experiment: Experiment,
  options: ExperimentHtmlOptions,
  parts: ExperimentPageParts,
): string {
  const { harness } = experiment;
  const annotations = options.annotations ?? [];
  return renderPage({
    title: `${experiment.name ?? experiment.suite.name ?? experiment.suite.id} — ${harness.name} ${harness.version}`,
    subtitle: `HarnessEval experiment ${experiment.id}`,
    sections: [
      ...(options.viewerOrigin === undefined ? [] : viewerSection(experiment, options.viewerOrigin)),
      { id: 'summary', title: 'Summary', html: parts.summary },
      { id: 'metrics', title: 'Metrics', html: metricCardsSection(experiment.metrics) },
      ...flakySection(parts.flaky),
      { id: 'charts', title: 'Charts', html: parts.charts },
      { id: 'tasks', title: 'Trials', html: parts.tasks },
      ...(annotations.length === 0
        ? []
        : [
            {
              id: 'annotations',
              title: 'Annotations',
              html: annotationsSection(annotations, parts.annotated),
            },
          ]),
    ],
    data: { kind: 'experiment', experiment_id: experiment.id, trials: parts.trials },
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
  });
}
