import type { RunRecord } from '../../../core/run-record.ts';
import { histogram, scatter } from '../charts.ts';
import { escapeHtml } from '../escape.ts';
import { formatSeconds, formatUsd } from '../format.ts';

export function figure(caption: string, svg: string): string {
  return `<figure><figcaption>${escapeHtml(caption)}</figcaption>${svg}</figure>`;
}

/** Score distribution, cost against score and trial duration, one point or count per trial. */
export function experimentChartsSection(experiment: {
  readonly records: readonly Pick<
    RunRecord,
    'task_id' | 'epoch' | 'scores' | 'cost_usd' | 'duration_seconds'
  >[];
}): string {
  const scored = experiment.records.filter((r) => r.scores['overall'] !== undefined);
  const scores = scored.map((r) => r.scores['overall']!);
  const costed = scored.filter((r) => r.cost_usd !== null);
  const durations = experiment.records.map((r) => r.duration_seconds);
  const scoreChart = histogram(scores, {
    title: 'Distribution of overall scores per trial',
    domain: [0, 1],
    bins: 10,
    xLabel: 'overall score',
    yLabel: 'trials',
  });
  const costChart = scatter(
    costed.map((r) => ({
      x: r.cost_usd!,
      y: r.scores['overall']!,
      label: `${r.task_id} #${r.epoch}: ${formatUsd(r.cost_usd)}, score ${r.scores['overall']!.toFixed(3)}`,
    })),
    {
      title: 'Cost against overall score per trial',
      xLabel: 'cost per trial',
      yLabel: 'overall score',
      formatX: formatUsd,
    },
  );
  // Trial duration (wall clock with the checks), not agent latency: the names say which.
  const durationChart = histogram(durations, {
    title: 'Distribution of trial duration (workspace, agent and checks)',
    domain: [0, durations.reduce((m, d) => Math.max(m, d), 0)],
    bins: 12,
    xLabel: 'trial duration',
    yLabel: 'trials',
    formatX: formatSeconds,
  });
  // A chart with nothing to plot is left out and said in one line, not drawn as an empty box.
  const charts: { caption: string; svg: string; count: number; absent: string }[] = [
    {
      caption: `Score distribution (${scores.length} scored trials)`,
      svg: scoreChart,
      count: scores.length,
      absent: 'no trial has an overall score yet, so there is no score distribution',
    },
    {
      caption: `Cost against score (${costed.length} trials with a cost)`,
      svg: costChart,
      count: costed.length,
      absent: 'no scored trial has a known cost, so there is no cost-against-score chart',
    },
    {
      caption: `Trial duration (${durations.length} trials)`,
      svg: durationChart,
      count: durations.length,
      absent: 'no trials, so there is no trial-duration chart',
    },
  ];
  const drawn = charts.filter((c) => c.count > 0);
  const absent = charts.filter((c) => c.count === 0).map((c) => c.absent);
  return (
    (drawn.length === 0
      ? ''
      : `<div class="charts">${drawn.map((c) => figure(c.caption, c.svg)).join('')}</div>`) +
    (absent.length === 0 ? '' : `<p class="note">${escapeHtml(`${absent.join('; ')}.`)}</p>`)
  );
}
