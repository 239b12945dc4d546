import type { Direction, MetricResult } from '../../../core/experiment.ts';
import { metricNotes } from '../../metric-notes.ts';
import { escapeHtml } from '../escape.ts';
import { formatLikeMetric } from '../format.ts';
import { intervalBar } from '../interval-bar.ts';

const ARROWS: Record<Direction, { symbol: string; text: string }> = {
  higher_is_better: { symbol: '↑', text: 'higher is better' },
  lower_is_better: { symbol: '↓', text: 'lower is better' },
  neutral: { symbol: '·', text: 'neutral' },
};

/** One card: value, ± standard error, the 95% interval drawn as a bar, n and the direction. */
export function metricCard(metric: MetricResult): string {
  const arrow = ARROWS[metric.direction];
  const stderr =
    metric.stderr === null || metric.value === null
      ? ''
      : `<span class="stderr">± ${escapeHtml(formatLikeMetric(metric, metric.stderr))}</span>`;
  const interval = metric.ci95
    ? `95% interval ${formatLikeMetric(metric, metric.ci95[0])} to ${formatLikeMetric(metric, metric.ci95[1])}`
    : 'no interval';
  const bar = intervalBar({ value: metric.value, ci95: metric.ci95, label: `${metric.name}: ${interval}` });
  return (
    `<div class="card" data-metric="${escapeHtml(metric.name)}">` +
    `<div class="name"><span>${escapeHtml(metric.name)}</span>` +
    `<span class="dir" title="${arrow.text}" aria-label="${arrow.text}">${arrow.symbol}</span></div>` +
    `<div><span class="value">${escapeHtml(metric.value === null ? 'n/a' : metric.formatted_value)}</span>${stderr}</div>` +
    `${bar}<div class="meta">${escapeHtml(interval)} · n = ${metric.n}</div>` +
    metricNotes(metric)
      .map((note) => `<div class="meta note">${escapeHtml(note)}</div>`)
      .join('') +
    (metric.description ? `<div class="meta">${escapeHtml(metric.description)}</div>` : '') +
    '</div>'
  );
}

export function metricCardsSection(metrics: readonly MetricResult[]): string {
  if (metrics.length === 0) return '<p class="none">No metrics were computed.</p>';
  return `<div class="cards">${metrics.map(metricCard).join('')}</div>`;
}
