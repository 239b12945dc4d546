/**
 * The self-contained HTML report. A comparison or timeline page is built from the same parts:
 * sections of escaped markup (`escapeHtml`, `metricCard`, `intervalBar`, `lineChart`, `histogram`,
 * `scatter`) handed to `renderPage({ title, sections, data })`. Any `table[data-table]` with
 * `th[data-sort]` headers and rows carrying `data-search` / `data-outcome` gets sorting and the
 * filters from the page script; `data.trials` plus `button[data-trial=i]` opens a trace.
 */
import type { Experiment } from '../../core/experiment.ts';
import { deliver } from '../destination.ts';
import type { ReporterV1, ReportOptions } from '../types.ts';
import { renderExperimentHtml } from './experiment-page.ts';
import { streamExperimentHtml } from './experiment-stream.ts';

export type { ChartOptions, HistogramOptions, LinePoint, LineSeries, ScatterPoint } from './charts.ts';
export { emptyChart, histogram, lineChart, scatter } from './charts.ts';
export { escapeHtml, jsonForScript, truncateText } from './escape.ts';
export { type ExperimentHtmlOptions, renderExperimentHtml } from './experiment-page.ts';
export { type IntervalBarInput, intervalBar } from './interval-bar.ts';
export {
  type PageInput,
  type PageSection,
  type PageShellOptions,
  renderPage,
  SERVED_PAGE_CSP,
  type ServedPage,
} from './page.ts';
export { metricCard, metricCardsSection } from './sections/metric-cards.ts';

/** The self-contained HTML report (`-o report.html`): returns the page and writes it to a destination. */
export function createHtmlReporter(): ReporterV1 {
  return {
    specificationVersion: 'v1',
    name: 'html',
    extensions: ['.html', '.htm'],
    async report(experiment: Experiment, options?: ReportOptions): Promise<string> {
      return deliver(
        renderExperimentHtml(experiment, {
          ...(options?.flaky ? { flaky: options.flaky } : {}),
          ...(options?.annotations ? { annotations: options.annotations } : {}),
          ...(options?.viewerOrigin ? { viewerOrigin: options.viewerOrigin } : {}),
        }),
        options,
      );
    },
    async streamReport(experiment, pages, write, options) {
      await streamExperimentHtml(experiment, pages, write, {
        ...(options?.flaky ? { flaky: options.flaky } : {}),
        ...(options?.annotations ? { annotations: options.annotations } : {}),
        ...(options?.viewerOrigin ? { viewerOrigin: options.viewerOrigin } : {}),
      });
    },
  };
}

/** A ready instance; the reporter holds no state, so one can serve every run. */
export const htmlReporter: ReporterV1 = createHtmlReporter();
