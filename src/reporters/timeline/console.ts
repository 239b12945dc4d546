import type { Timeline } from '../../timeline/timeline.ts';
import { escapeControl } from '../../util/terminal-text.ts';
import { textTable } from '../text-table.ts';
import { timelineDomainLines } from './by-domain.ts';
import {
  cellText,
  marksLegend,
  metricHeading,
  orderNote,
  trendText,
  trendVerdict,
  valueText,
  versionLabel,
} from './headings.ts';
import { sparkline } from './sparkline.ts';

export { metricHeading } from './headings.ts';

/**
 * The seed's timeline table (Date, Version, one column per metric) with ▲/▼ on a value that rose
 * or fell significantly against the previous version, then per metric a sparkline and the trend
 * over the whole lineage (slope per version and first → last, each with its test).
 */
export function renderTimelineConsole(timeline: Timeline): string {
  const lines = [
    `Timeline: ${escapeControl(timeline.harness)}`,
    `Suite: ${escapeControl(timeline.suite)} · ${orderNote(timeline)}`,
    '---',
  ];
  const columns = [
    { head: 'Date' },
    { head: 'Version' },
    ...timeline.metrics.map((m) => ({ head: metricHeading(m.name), align: 'right' as const })),
  ];
  const rows = timeline.points.map((p) => [
    p.date,
    versionLabel(p.version),
    ...timeline.metrics.map((_, j) => cellText(p.cells[j])),
  ]);
  lines.push(...textTable(columns, rows), '');
  const trendRows = timeline.metrics.map((m, j) => {
    const values = timeline.points.map((p) => p.cells[j]?.value ?? null);
    const first = valueText(timeline.points[0]?.cells[j]);
    const last = valueText(timeline.points.at(-1)?.cells[j]);
    const better =
      m.direction === 'lower_is_better'
        ? 'lower is better'
        : m.direction === 'higher_is_better'
          ? 'higher is better'
          : '';
    const trend = timeline.trends[j];
    return [
      metricHeading(m.name),
      sparkline(values),
      `${first} → ${last}`,
      better,
      trend ? trendVerdict(trend) : '',
    ];
  });
  lines.push(
    ...textTable([{ head: 'Trend' }, { head: '' }, { head: '' }, { head: '' }, { head: '' }], trendRows),
  );
  lines.push('');
  for (const trend of timeline.trends)
    lines.push(`${metricHeading(trend.metric)}: ${trendText(timeline, trend)}`);
  lines.push(
    '',
    marksLegend(timeline),
    'trend: mean of per-task least-squares slopes, t test over tasks (CR1 by task)',
  );
  const domains = timelineDomainLines(timeline);
  if (domains.length > 0) lines.push('', ...domains.map((line) => escapeControl(line)));
  for (const w of timeline.warnings) lines.push(`warning: ${escapeControl(w)}`);
  return `${lines.join('\n')}\n`;
}
