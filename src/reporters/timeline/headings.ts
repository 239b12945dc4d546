import { formatDifference, formatInterval, formatPValue } from '../../metrics/format.ts';
import type { Timeline, TimelineCell, TimelineTrend } from '../../timeline/timeline.ts';

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

export function versionLabel(version: string): string {
  return /^\d/.test(version) ? `v${version}` : version;
}

/**
 * The value, saying how many trials are pending when it rests on the decided ones only, so
 * `0.000 → n/a` cannot read as a collapse when it is grading that has not happened.
 */
export function valueText(cell: TimelineCell | undefined): string {
  if (cell === undefined) return 'n/a';
  return cell.pending > 0 ? `${cell.formatted_value} (${cell.pending} pending)` : cell.formatted_value;
}

/** The value with ▲/▼ when it rose/fell significantly against the previous version. */
export function cellText(cell: TimelineCell | undefined): string {
  if (cell === undefined) return 'n/a';
  const mark = cell.change?.mark ?? '';
  return mark === '' ? valueText(cell) : `${valueText(cell)} ${mark}`;
}

/** The unit of a timeline metric, for formatting differences like its values. */
function unitOf(timeline: Timeline, metric: string, sample: string) {
  const unit = timeline.metrics.find((m) => m.name === metric)?.unit;
  return { formatted_value: sample, unit };
}

/** "slope -2.01 per version [-2.29, -1.73], p <0.001 (Holm <0.001); first → last -8.17 [-9.3, -7.03]". */
export function trendText(timeline: Timeline, trend: TimelineTrend): string {
  const sample =
    timeline.points.find((p) => p.cells.some((c) => c.value !== null))?.cells[
      timeline.metrics.findIndex((m) => m.name === trend.metric)
    ]?.formatted_value ?? '';
  const unit = unitOf(timeline, trend.metric, sample);
  if (trend.slope === null) return 'one version: no trend';
  const adjusted =
    timeline.adjust === 'none'
      ? ''
      : ` (${timeline.adjust === 'bh' ? 'BH' : 'Holm'} ${formatPValue(trend.p_adjusted)})`;
  const parts = [
    `slope ${formatDifference(unit, trend.slope)} per version ${formatInterval(unit, trend.ci95, { difference: true })}, ` +
      `p ${formatPValue(trend.p_value)}${adjusted} over ${trend.tasks} tasks`,
  ];
  const fl = trend.first_last;
  if (fl !== null)
    parts.push(
      `first → last ${formatDifference(unit, fl.delta)} ${formatInterval(unit, fl.ci95, { difference: true })}, p ${formatPValue(fl.p_value)}`,
    );
  return parts.join('; ');
}

export function trendVerdict(trend: TimelineTrend): string {
  if (!trend.significant) return 'no significant trend';
  return trend.is_improvement ? 'improving' : trend.is_regression ? 'worsening' : 'changing';
}

export function orderNote(timeline: Timeline): string {
  const order =
    timeline.order === 'semver'
      ? 'ordered by semantic version'
      : timeline.order === 'released'
        ? 'ordered by metadata.released'
        : 'ordered by run time';
  const per =
    timeline.per_version === 'pooled' ? 'all runs of a version pooled' : 'the latest run of each version';
  return `${order}; one point per version (${per})`;
}

export function marksLegend(timeline: Timeline): string {
  const adjust =
    timeline.adjust === 'none'
      ? 'not adjusted'
      : `${timeline.adjust === 'bh' ? 'BH' : 'Holm'}-adjusted over every step in the table`;
  return `▲/▼ a significant rise/fall against the previous version (paired test over shared tasks, ${adjust}, α = ${timeline.alpha})`;
}
