import type { Comparison, MetricComparison, MetricDelta } from '../../compare/types.ts';
import { linearScale, niceDomain, niceTicks, px } from '../html/chart-scale.ts';
import { escapeHtml } from '../html/escape.ts';
import { differenceInterval, signedValue, testShort } from './format.ts';

/**
 * A forest plot of one candidate against the baseline: a row per metric with its paired
 * difference (the dot) and 95% interval (the bar) on one axis — the change relative to the
 * baseline's value, in percent, so that rates, seconds and dollars share it — with the zero line.
 * Colour follows the metric's direction: green a significant improvement, red a significant
 * regression, grey not significant. Each row also states the difference in the metric's own unit.
 * A metric whose baseline is 0 has no relative scale: its row shows the numbers only.
 */

const ROW = 26;
const TOP = 34;
const LABEL = 190;
const TEXT = 230;
const WIDTH = 820;

interface Row {
  readonly metric: MetricComparison;
  readonly delta: MetricDelta;
  /** In percent of |baseline|; null when the baseline is 0 or unknown. */
  readonly point: number | null;
  readonly interval: readonly [number, number] | null;
}

function rowsOf(comparison: Comparison, candidate: number): Row[] {
  return comparison.metrics.flatMap((metric) => {
    const delta = metric.deltas[candidate];
    const p = delta?.paired;
    if (delta === undefined || p === null || p === undefined || p.mean_difference === null) return [];
    const base = delta.baseline_value;
    const relative = base !== null && base !== 0 ? (x: number) => (100 * x) / Math.abs(base) : null;
    return [
      {
        metric,
        delta,
        point: relative ? relative(p.mean_difference) : null,
        interval: relative && p.ci95 ? [relative(p.ci95[0]), relative(p.ci95[1])] : null,
      },
    ];
  });
}

function tone(delta: MetricDelta): 'better' | 'worse' | 'same' {
  if (!delta.paired?.significant) return 'same';
  return delta.is_improvement ? 'better' : delta.is_regression ? 'worse' : 'same';
}

/** The plot as inline SVG (every label escaped), or an explanation when no metric has a paired test. */
export function forestPlot(comparison: Comparison, candidate = 0): string {
  const rows = rowsOf(comparison, candidate);
  const label = comparison.experiments[candidate + 1]?.label ?? '';
  const base = comparison.experiments[0]?.label ?? '';
  const title = `Paired differences, ${label} vs ${base} (95% intervals)`;
  if (rows.length === 0) return `<p class="note">No metric has a paired test: nothing to plot.</p>`;
  const ends = rows.flatMap((r) => [r.point, ...(r.interval ?? [])]).filter((x): x is number => x !== null);
  const [lo, hi] = niceDomain(Math.min(0, ...ends), Math.max(0, ...ends));
  const x = linearScale([lo, hi], [LABEL, WIDTH - TEXT]);
  const height = TOP + rows.length * ROW + 36;
  const bottom = TOP + rows.length * ROW;
  const parts = [
    `<text class="chart-title" x="${LABEL}" y="16">${escapeHtml(title)}</text>`,
    `<path class="grid zero" d="M${px(x(0))} ${TOP - 6}V${bottom}"/>`,
    `<path class="axis" d="M${LABEL} ${bottom}H${WIDTH - TEXT}"/>`,
  ];
  for (const t of niceTicks(lo, hi, 6)) {
    parts.push(
      `<text class="tick" x="${px(x(t))}" y="${bottom + 14}" text-anchor="middle">${escapeHtml(`${t > 0 ? '+' : ''}${t}%`)}</text>`,
    );
  }
  parts.push(
    `<text class="label" x="${px((LABEL + WIDTH - TEXT) / 2)}" y="${bottom + 30}" text-anchor="middle">change relative to ${escapeHtml(base)} (%)</text>`,
  );
  rows.forEach((r, i) => {
    const y = TOP + i * ROW + ROW / 2;
    const numbers = `${signedValue(r.metric, r.delta.paired?.mean_difference ?? null)} ${differenceInterval(r.metric, r.delta.paired?.ci95 ?? null)} · ${testShort(r.delta.paired ?? null)}`;
    const cls = `forest-row ${tone(r.delta)}`;
    const shapes =
      r.point === null
        ? `<text class="tick" x="${px(x(0) + 6)}" y="${y}" dy="0.32em">baseline 0: no relative scale</text>`
        : `${r.interval ? `<path class="ci-line" d="M${px(x(r.interval[0]))} ${y}H${px(x(r.interval[1]))}"/>` : ''}` +
          `<circle class="dot" cx="${px(x(r.point))}" cy="${y}" r="5"/>`;
    parts.push(
      `<g class="${cls}" data-metric="${escapeHtml(r.metric.name)}"><title>${escapeHtml(`${r.metric.name}: ${numbers}`)}</title>` +
        `<text class="row-label" x="${LABEL - 8}" y="${y}" dy="0.32em" text-anchor="end">${escapeHtml(r.metric.name)}</text>` +
        shapes +
        `<text class="row-value" x="${WIDTH - TEXT + 10}" y="${y}" dy="0.32em">${escapeHtml(numbers)}</text></g>`,
    );
  });
  return (
    `<svg class="chart forest" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" ` +
    `role="img" aria-label="${escapeHtml(title)}"><title>${escapeHtml(title)}</title>${parts.join('')}</svg>`
  );
}
