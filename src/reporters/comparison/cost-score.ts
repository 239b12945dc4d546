import { type CostScoreChartData, costIsComplete, type RankedPoint } from '../../compare/pareto.ts';
import { formatMetricValue } from '../../metrics/format.ts';
import { linearScale, niceDomain, niceTicks, px } from '../html/chart-scale.ts';
import { escapeHtml } from '../html/escape.ts';
import { formatScore } from '../html/format.ts';

/**
 * The cost–score chart of the compared configurations: mean cost per task (x) against the overall
 * score (y) with its 95% interval, the Pareto frontier drawn as a step line through its points. A
 * point whose cost is partial is hollow, marked "≥" (its cost is at least that) and left off the
 * frontier, as is one whose score waits for grades; an experiment without a cost or a score is listed under the chart, never drawn at 0.
 */

const WIDTH = 560;
const HEIGHT = 340;
const M = { top: 30, right: 90, bottom: 44, left: 60 };

const usd = (value: number): string => formatMetricValue(value, 'usd');

function costNote(p: RankedPoint): string {
  const parts: string[] = [];
  if (p.unpriced_calls > 0)
    parts.push(`${p.unpriced_calls} unpriced ${p.unpriced_calls === 1 ? 'call' : 'calls'}`);
  if (p.unknown_cost_trials > 0)
    parts.push(`${p.unknown_cost_trials} ${p.unknown_cost_trials === 1 ? 'trial' : 'trials'} without a cost`);
  return parts.join(', ');
}

/** Why an incomplete point is off the frontier, in words. */
function incompleteNote(p: RankedPoint): string {
  const reasons: string[] = [];
  if (!costIsComplete(p)) reasons.push(`cost partial (${costNote(p)}), so at least ${usd(p.cost)} per task`);
  if (p.pending_trials > 0)
    reasons.push(
      `score over decided trials only, ${p.pending_trials} ${p.pending_trials === 1 ? 'trial' : 'trials'} pending`,
    );
  return reasons.join('; ');
}

function pointTip(p: RankedPoint): string {
  const interval = p.score_ci95 ? ` [${formatScore(p.score_ci95[0])}, ${formatScore(p.score_ci95[1])}]` : '';
  const cost = costIsComplete(p) ? usd(p.cost) : `≥ ${usd(p.cost)} (partial: ${costNote(p)})`;
  const place =
    p.status === 'frontier'
      ? 'on the Pareto frontier'
      : p.status === 'dominated'
        ? 'dominated'
        : `${incompleteNote(p)}: not placed on the frontier`;
  return `${p.label}: ${cost} per task, score ${formatScore(p.score)}${interval}; ${place}`;
}

function notes(data: CostScoreChartData): string {
  const items = [
    ...data.points
      .filter((p) => p.status === 'incomplete')
      .map(
        (p) =>
          `<li data-incomplete="${escapeHtml(p.experiment_id)}">${escapeHtml(`${p.label}: ${incompleteNote(p)}; drawn hollow and left off the frontier`)}</li>`,
      ),
    ...data.missing.map(
      (m) =>
        `<li data-missing="${escapeHtml(m.experiment_id)}">${escapeHtml(`${m.label}: not drawn, ${m.reason}`)}</li>`,
    ),
  ];
  return items.length === 0 ? '' : `<ul class="chart-notes">${items.join('')}</ul>`;
}

export function costScoreChart(data: CostScoreChartData): string {
  const title = 'Cost per task vs overall score, with the Pareto frontier';
  if (data.points.length === 0)
    return `<p class="note">${escapeHtml(`${title}: no experiment has both a cost and a score.`)}</p>${notes(data)}`;
  const costs = data.points.map((p) => p.cost);
  const [x0, x1] = niceDomain(0, Math.max(...costs) || 1, 5);
  const x = linearScale([x0, x1], [M.left, WIDTH - M.right]);
  const y = linearScale([0, 1], [HEIGHT - M.bottom, M.top]);
  const bottom = HEIGHT - M.bottom;
  const parts = [
    `<text class="chart-title" x="${M.left}" y="16">${escapeHtml(title)}</text>`,
    `<path class="axis" d="M${M.left} ${M.top}V${bottom}H${WIDTH - M.right}"/>`,
  ];
  for (const t of niceTicks(x0, x1, 5))
    parts.push(
      `<text class="tick" x="${px(x(t))}" y="${bottom + 14}" text-anchor="middle">${escapeHtml(usd(t))}</text>`,
    );
  for (const t of niceTicks(0, 1, 5))
    parts.push(
      `<path class="grid" d="M${M.left} ${px(y(t))}H${WIDTH - M.right}"/>`,
      `<text class="tick" x="${M.left - 6}" y="${px(y(t))}" dy="0.32em" text-anchor="end">${t}</text>`,
    );
  parts.push(
    `<text class="label" x="${px((M.left + WIDTH - M.right) / 2)}" y="${HEIGHT - 6}" text-anchor="middle">mean cost per task (USD, lower is better)</text>`,
    `<text class="label" transform="translate(12 ${px((M.top + bottom) / 2)}) rotate(-90)" text-anchor="middle">overall score (higher is better)</text>`,
  );
  // The frontier as a staircase: from each point right to the next one's cost, then up to its score.
  const frontier = data.points.filter((p) => p.status === 'frontier').sort((a, b) => a.cost - b.cost);
  if (frontier.length > 1) {
    let d = '';
    frontier.forEach((p, i) => {
      const previous = frontier[i - 1];
      d +=
        previous === undefined
          ? `M${px(x(p.cost))} ${px(y(p.score))}`
          : `H${px(x(p.cost))}V${px(y(p.score))}`;
    });
    parts.push(`<path class="frontier-line" d="${d}"/>`);
  }
  for (const p of data.points) {
    const cx = px(x(p.cost));
    const cy = px(y(p.score));
    const interval = p.score_ci95
      ? `<path class="ci-line" d="M${cx} ${px(y(p.score_ci95[0]))}V${px(y(p.score_ci95[1]))}"/>`
      : '';
    const partial =
      p.status === 'incomplete'
        ? `<text class="tick" x="${cx}" y="${px(y(p.score) - 9)}" text-anchor="middle">≥</text>`
        : '';
    parts.push(
      `<g class="cost-point ${p.status}" data-experiment="${escapeHtml(p.experiment_id)}" data-status="${p.status}">` +
        `<title>${escapeHtml(pointTip(p))}</title>${interval}<circle class="dot" cx="${cx}" cy="${cy}" r="6"/>${partial}` +
        `<text class="row-label" x="${px(x(p.cost) + 9)}" y="${cy}" dy="0.32em">${escapeHtml(p.label)}</text></g>`,
    );
  }
  const onFrontier = frontier.map((p) => p.label).join(', ');
  const caption =
    frontier.length === 0
      ? 'No configuration with a complete cost and a final score: no frontier.'
      : `Pareto frontier (nothing cheaper and at least as good): ${onFrontier}. Bars: 95% interval of the score.`;
  return (
    `<svg class="chart cost-score" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" ` +
    `role="img" aria-label="${escapeHtml(title)}"><title>${escapeHtml(title)}</title>${parts.join('')}</svg>` +
    `<figcaption>${escapeHtml(caption)}</figcaption>${notes(data)}`
  );
}
