import type { Timeline } from '../../timeline/timeline.ts';
import { escapeHtml, lineChart, renderPage } from '../html/index.ts';
import { metricHeading } from './console.ts';

/** A timeline as a self-contained HTML page: the seed's table and one line chart per metric. */
export function renderTimelineHtml(timeline: Timeline, options: { readonly nonce?: string } = {}): string {
  const versions = timeline.points.map((p) => p.version);
  const head = ['Date', 'Version', ...timeline.metrics.map((m) => metricHeading(m.name))];
  const rows = timeline.points
    .map((p) => {
      const cells = p.cells.map(
        (c) => `<td class="num">${escapeHtml(c.formatted_value)}${c.change?.significant ? ' *' : ''}</td>`,
      );
      return `<tr><td>${escapeHtml(p.date)}</td><td>${escapeHtml(p.version)}</td>${cells.join('')}</tr>`;
    })
    .join('');
  const table =
    `<table data-table><thead><tr>${head.map((h) => `<th data-sort>${escapeHtml(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows}</tbody></table>` +
    `<p>* significant change against the previous version (paired test, α = ${timeline.alpha}).</p>`;
  const charts = timeline.metrics
    .map((m, j) =>
      lineChart(
        [
          {
            name: metricHeading(m.name),
            points: timeline.points.map((p, i) => ({
              x: i,
              y: p.cells[j]?.value ?? null,
              label: `${p.version}: ${p.cells[j]?.formatted_value ?? 'n/a'}`,
            })),
          },
        ],
        {
          title: metricHeading(m.name),
          xLabel: 'version',
          formatX: (x) => versions[Math.round(x)] ?? '',
        },
      ),
    )
    .join('');
  return renderPage({
    title: `Timeline: ${timeline.harness}`,
    subtitle: `Suite ${timeline.suite}`,
    sections: [
      { id: 'table', title: 'Versions', html: table },
      { id: 'charts', title: 'Trends', html: charts },
    ],
    ...(options.nonce ? { nonce: options.nonce } : {}),
  });
}
