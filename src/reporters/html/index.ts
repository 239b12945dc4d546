import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Experiment } from '../../core/experiment.ts';
import type { ReporterV1, ReportOptions } from '../types.ts';
import { renderExperimentHtml } from './experiment-page.ts';

export type { ChartOptions, HistogramOptions, LinePoint, LineSeries, ScatterPoint } from './charts.ts';
export { emptyChart, histogram, lineChart, scatter } from './charts.ts';
export { escapeHtml, jsonForScript, truncateText } from './escape.ts';
export { type ExperimentHtmlOptions, renderExperimentHtml } from './experiment-page.ts';
export { type IntervalBarInput, intervalBar } from './interval-bar.ts';
export { type PageInput, type PageSection, renderPage } from './page.ts';
export { metricCard, metricCardsSection } from './sections/metric-cards.ts';

/** Writes the self-contained HTML report (`-o report.html`). */
export const htmlReporter: ReporterV1 = {
  specificationVersion: 'v1',
  name: 'html',
  extensions: ['.html', '.htm'],
  async report(experiment: Experiment, options: ReportOptions = {}): Promise<string> {
    const html = renderExperimentHtml(experiment);
    if (options.destination !== undefined) {
      await mkdir(dirname(options.destination), { recursive: true });
      await writeFile(options.destination, html, 'utf8');
    }
    return html;
  },
};
