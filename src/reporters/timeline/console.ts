import type { Timeline } from '../../timeline/timeline.ts';
import { escapeControl } from '../../util/terminal-text.ts';
import { markdownCell } from '../markdown.ts';
import { textTable } from '../text-table.ts';
import { sparkline } from './sparkline.ts';

const HEADINGS: Readonly<Record<string, string>> = {
  hitl_unplanned: 'Unplanned HITL',
  prompts_unplanned: 'Unplanned prompts',
  first_pass_approval_rate: 'FPA',
  cost_per_task: 'Cost/task',
  overall_score: 'Score',
  human_time_min: 'Human min',
  success_rate: 'Success',
  accuracy: 'Accuracy',
};

/** The seed's short column names ("FPA", "Score"); other metrics keep their names. */
export function metricHeading(name: string): string {
  return HEADINGS[name] ?? name;
}

function versionLabel(version: string): string {
  return /^\d/.test(version) ? `v${version}` : version;
}

/** The value with `*` when it changed significantly; `pad` keeps right-aligned numbers in line. */
function cellText(timeline: Timeline, point: number, metric: number, pad = ''): string {
  const cell = timeline.points[point]?.cells[metric];
  if (cell === undefined) return `n/a${pad}`;
  return `${cell.formatted_value}${cell.change?.significant ? '*' : pad}`;
}

/**
 * The seed's timeline table (Date, Version, one column per metric), `*` on a value that changed
 * significantly against the previous version, then a sparkline per metric.
 */
export function renderTimelineConsole(timeline: Timeline): string {
  const lines = [
    `Timeline: ${escapeControl(timeline.harness)}`,
    `Suite: ${escapeControl(timeline.suite)}`,
    '---',
  ];
  const columns = [
    { head: 'Date' },
    { head: 'Version' },
    ...timeline.metrics.map((m) => ({ head: metricHeading(m.name), align: 'right' as const })),
  ];
  const rows = timeline.points.map((p, i) => [
    p.date,
    versionLabel(p.version),
    ...timeline.metrics.map((_, j) => cellText(timeline, i, j, ' ')),
  ]);
  lines.push(...textTable(columns, rows), '');
  const trendRows = timeline.metrics.map((m, j) => {
    const values = timeline.points.map((p) => p.cells[j]?.value ?? null);
    const first = timeline.points[0]?.cells[j]?.formatted_value ?? 'n/a';
    const last = timeline.points.at(-1)?.cells[j]?.formatted_value ?? 'n/a';
    const better =
      m.direction === 'lower_is_better'
        ? 'lower is better'
        : m.direction === 'higher_is_better'
          ? 'higher is better'
          : '';
    return [metricHeading(m.name), sparkline(values), `${first} → ${last}`, better];
  });
  lines.push(...textTable([{ head: 'Trend' }, { head: '' }, { head: '' }, { head: '' }], trendRows));
  lines.push(
    '',
    `* significant change against the previous version (paired test over shared tasks, α = ${timeline.alpha})`,
  );
  for (const w of timeline.warnings) lines.push(`warning: ${escapeControl(w)}`);
  return `${lines.join('\n')}\n`;
}

/** The same table in GitHub-flavoured Markdown (the blog-post table). */
export function renderTimelineMarkdown(timeline: Timeline): string {
  const heads = ['Date', 'Version', ...timeline.metrics.map((m) => markdownCell(metricHeading(m.name), 40))];
  const lines = [
    `### Timeline: ${markdownCell(timeline.harness, 80)}`,
    '',
    `Suite \`${markdownCell(timeline.suite, 80)}\``,
    '',
    `| ${heads.join(' | ')} |`,
    `|:---|:---|${timeline.metrics.map(() => '---:').join('|')}|`,
    ...timeline.points.map(
      (p, i) =>
        `| ${[p.date, markdownCell(versionLabel(p.version), 40), ...timeline.metrics.map((_, j) => markdownCell(cellText(timeline, i, j), 40))].join(' | ')} |`,
    ),
    '',
    `_* significant change against the previous version (paired test, α = ${timeline.alpha})._`,
  ];
  for (const w of timeline.warnings) lines.push('', `> :warning: ${markdownCell(w, 200)}`);
  return `${lines.join('\n')}\n`;
}
