import { formatMetricNumber } from '../../metrics/format.ts';
import type { Timeline } from '../../timeline/timeline.ts';
import { escapeHtml, lineChart, renderPage } from '../html/index.ts';
import type { PageShellOptions } from '../html/page.ts';
import {
  cellText,
  marksLegend,
  metricHeading,
  orderNote,
  trendText,
  trendVerdict,
  versionLabel,
} from './headings.ts';

function unitOf(timeline: Timeline, j: number) {
  const sample = timeline.points
    .map((p) => p.cells[j]?.formatted_value)
    .find((v) => v !== undefined && v !== 'n/a');
  return { formatted_value: sample ?? '', unit: timeline.metrics[j]?.unit };
}

/** Rates and scores live in [0, 1]: their charts show the whole range. */
function fixedRange(unit: string | undefined): readonly [number, number] | undefined {
  return unit === 'ratio' || unit === 'score' ? [0, 1] : undefined;
}

export interface TimelineHtmlOptions extends PageShellOptions {
  /** Makes each chart point a link to its experiment, and each step a link to its comparison. */
  readonly links?: {
    readonly experiment: (experimentId: string) => string;
    readonly step: (previousId: string, experimentId: string) => string;
  };
}

/**
 * A timeline as a self-contained HTML page: the seed's table with ▲/▼ marks, the trend of each
 * metric over the lineage, and one line chart per metric with a visible title, one tick per
 * version (in version order) and a y axis in the table's units.
 */
export function renderTimelineHtml(timeline: Timeline, options: TimelineHtmlOptions = {}): string {
  const versions = timeline.points.map((p) => versionLabel(p.version));
  const head = ['Date', 'Version', ...timeline.metrics.map((m) => metricHeading(m.name))];
  const rows = timeline.points
    .map((p) => {
      const cells = timeline.metrics.map((_, j) => {
        const change = p.cells[j]?.change;
        const tone = change?.significant
          ? change.is_improvement
            ? ' pass'
            : change.is_regression
              ? ' fail'
              : ''
          : '';
        return `<td class="num${tone}">${escapeHtml(cellText(p.cells[j]))}</td>`;
      });
      return `<tr><td>${escapeHtml(p.date)}</td><td>${escapeHtml(versionLabel(p.version))}</td>${cells.join('')}</tr>`;
    })
    .join('');
  const table =
    `<table data-table><thead><tr>${head.map((h) => `<th data-sort>${escapeHtml(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows}</tbody></table>` +
    `<p>${escapeHtml(orderNote(timeline))}. ${escapeHtml(marksLegend(timeline))}.</p>`;
  const trends = timeline.trends
    .map(
      (t) =>
        `<li><b>${escapeHtml(metricHeading(t.metric))}</b>: ${escapeHtml(trendVerdict(t))} — ${escapeHtml(trendText(timeline, t))}</li>`,
    )
    .join('');
  const ticks = timeline.points.map((_, i) => i);
  const charts = timeline.metrics
    .map((m, j) => {
      const unit = unitOf(timeline, j);
      const range = fixedRange(m.unit);
      const heading = metricHeading(m.name);
      const better =
        m.direction === 'lower_is_better'
          ? ' (lower is better)'
          : m.direction === 'higher_is_better'
            ? ' (higher is better)'
            : '';
      return `<figure>${lineChart(
        [
          {
            name: heading,
            points: timeline.points.map((p, i) => {
              const previous = timeline.points[i - 1];
              return {
                x: i,
                y: p.cells[j]?.value ?? null,
                label: `${versionLabel(p.version)}: ${cellText(p.cells[j])}`,
                ...(options.links ? { href: options.links.experiment(p.experiment_id) } : {}),
                ...(options.links && previous
                  ? { stepHref: options.links.step(previous.experiment_id, p.experiment_id) }
                  : {}),
              };
            }),
          },
        ],
        {
          title: `${heading}${better}`,
          showTitle: true,
          xLabel: 'version',
          yLabel: heading,
          xTicks: ticks,
          formatX: (x) => versions[Math.round(x)] ?? '',
          formatY: (y) => formatMetricNumber(unit, y),
          ...(range ? { yDomain: range } : {}),
        },
      )}</figure>`;
    })
    .join('');
  const warnings =
    timeline.warnings.length === 0
      ? []
      : [
          {
            id: 'warnings',
            title: 'Warnings',
            html: `<ul>${timeline.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>`,
          },
        ];
  return renderPage({
    title: `Timeline: ${timeline.harness}`,
    subtitle: `Suite ${timeline.suite}`,
    sections: [
      ...warnings,
      { id: 'table', title: 'Versions', html: table },
      { id: 'trend', title: 'Trend over the lineage', html: `<ul>${trends}</ul>` },
      { id: 'charts', title: 'Charts', html: `<div class="charts">${charts}</div>` },
      ...(options.sections ?? []),
    ],
    ...(options.nonce ? { nonce: options.nonce } : {}),
    ...(options.served ? { served: options.served } : {}),
  });
}
