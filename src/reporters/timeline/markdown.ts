import type { Timeline } from '../../timeline/timeline.ts';
import { markdownCell } from '../markdown.ts';
import { timelineDomainLines } from './by-domain.ts';
import {
  cellText,
  marksLegend,
  metricHeading,
  orderNote,
  trendText,
  trendVerdict,
  versionLabel,
} from './headings.ts';

/** The timeline in GitHub-flavoured Markdown (the blog-post table), with the lineage trends. */
export function renderTimelineMarkdown(timeline: Timeline): string {
  const heads = ['Date', 'Version', ...timeline.metrics.map((m) => markdownCell(metricHeading(m.name), 40))];
  const lines = [
    `### Timeline: ${markdownCell(timeline.harness, 80)}`,
    '',
    `Suite \`${markdownCell(timeline.suite, 80)}\` · ${orderNote(timeline)}`,
    '',
    `| ${heads.join(' | ')} |`,
    `|:---|:---|${timeline.metrics.map(() => '---:').join('|')}|`,
    ...timeline.points.map(
      (p) =>
        `| ${[p.date, markdownCell(versionLabel(p.version), 40), ...timeline.metrics.map((_, j) => markdownCell(cellText(p.cells[j]), 40))].join(' | ')} |`,
    ),
    '',
    `_${marksLegend(timeline)}._`,
    '',
    '**Trend over the lineage**',
    '',
    ...timeline.trends.map(
      (t) =>
        `- ${markdownCell(metricHeading(t.metric), 40)}: ${trendVerdict(t)} — ${markdownCell(trendText(timeline, t), 300)}`,
    ),
  ];
  const domains = timelineDomainLines(timeline);
  if (domains.length > 0)
    lines.push(
      '',
      ...domains.map((line) =>
        line.startsWith('  ') ? `- ${markdownCell(line.trim(), 400)}` : `**${markdownCell(line, 200)}**\n`,
      ),
    );
  for (const w of timeline.warnings) lines.push('', `> :warning: ${markdownCell(w, 200)}`);
  return `${lines.join('\n')}\n`;
}
