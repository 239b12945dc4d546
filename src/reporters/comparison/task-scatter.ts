import type { TaskScorePair } from '../../compare/task-scores.ts';
import { linearScale, niceTicks, px } from '../html/chart-scale.ts';
import { escapeHtml } from '../html/escape.ts';
import { formatScore } from '../html/format.ts';

/**
 * The per-task scatter of a pair: the baseline's score of each task on x, the candidate's on y,
 * both on [0, 1], with the diagonal of "no change". A point above it is a task the candidate does
 * better (green), below it worse (red), on it the same (grey). With `href`, each point is a link
 * (the viewer's side-by-side traces of that task).
 */
export interface TaskScatterOptions {
  readonly baselineLabel: string;
  readonly candidateLabel: string;
  readonly href?: (taskId: string) => string;
  /** Tasks either side ran that are not plotted (pending, or run by one side only): the caption says so. */
  readonly leftOut?: number;
}

const SIZE = 300;
const LEFT = 54;
const TOP = 30;
const BOTTOM = 44;
const RIGHT = 16;

/** Scores closer than this are the same score printed to three decimals. */
const SAME = 5e-4;

export function taskSide(pair: TaskScorePair): 'above' | 'below' | 'same' {
  const d = pair.candidate - pair.baseline;
  return Math.abs(d) < SAME ? 'same' : d > 0 ? 'above' : 'below';
}

export function taskScatter(pairs: readonly TaskScorePair[], options: TaskScatterOptions): string {
  const title = `Score per task, ${options.candidateLabel} vs ${options.baselineLabel}`;
  if (pairs.length === 0)
    return `<p class="note">${escapeHtml(`${title}: no task was decided in both, nothing to plot${options.leftOut ? ` (${options.leftOut} tasks pending or run by one side only)` : ''}.`)}</p>`;
  const width = LEFT + SIZE + RIGHT;
  const height = TOP + SIZE + BOTTOM;
  const x = linearScale([0, 1], [LEFT, LEFT + SIZE]);
  const y = linearScale([0, 1], [TOP + SIZE, TOP]);
  const parts = [
    `<text class="chart-title" x="${LEFT}" y="16">${escapeHtml(title)}</text>`,
    `<path class="axis" d="M${LEFT} ${TOP}V${TOP + SIZE}H${LEFT + SIZE}"/>`,
    `<path class="grid zero diagonal" d="M${px(x(0))} ${px(y(0))}L${px(x(1))} ${px(y(1))}"/>`,
  ];
  for (const t of niceTicks(0, 1, 5)) {
    parts.push(
      `<text class="tick" x="${px(x(t))}" y="${TOP + SIZE + 14}" text-anchor="middle">${t}</text>`,
      `<text class="tick" x="${LEFT - 6}" y="${px(y(t))}" dy="0.32em" text-anchor="end">${t}</text>`,
    );
  }
  parts.push(
    `<text class="label" x="${LEFT + SIZE / 2}" y="${height - 6}" text-anchor="middle">${escapeHtml(`score in ${options.baselineLabel} (baseline)`)}</text>`,
    `<text class="label" transform="translate(12 ${TOP + SIZE / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(`score in ${options.candidateLabel}`)}</text>`,
  );
  const counts = { above: 0, below: 0, same: 0 };
  for (const pair of pairs) {
    const side = taskSide(pair);
    counts[side]++;
    const tip = `${pair.task_id}: ${formatScore(pair.baseline)} → ${formatScore(pair.candidate)}`;
    const dot =
      `<circle class="task-point ${side}" cx="${px(x(pair.baseline))}" cy="${px(y(pair.candidate))}" r="5" ` +
      `data-task="${escapeHtml(pair.task_id)}"><title>${escapeHtml(tip)}</title></circle>`;
    parts.push(
      options.href === undefined
        ? dot
        : `<a href="${escapeHtml(options.href(pair.task_id))}" aria-label="${escapeHtml(tip)}">${dot}</a>`,
    );
  }
  const left = options.leftOut ?? 0;
  const legend =
    `${counts.above} better, ${counts.below} worse, ${counts.same} the same, of ${pairs.length} paired tasks` +
    (left > 0
      ? `; ${left} ${left === 1 ? 'task' : 'tasks'} not plotted (pending, or run by one side only)`
      : '');
  return (
    `<svg class="chart task-scatter" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
    `role="img" aria-label="${escapeHtml(title)}"><title>${escapeHtml(title)}</title>${parts.join('')}</svg>` +
    `<figcaption>${escapeHtml(legend)} (above the diagonal: better in ${escapeHtml(options.candidateLabel)}).</figcaption>`
  );
}
