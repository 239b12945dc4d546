import { costScoreData } from '../../compare/pareto.ts';
import { taskScorePairs } from '../../compare/task-scores.ts';
import type { Comparison } from '../../compare/types.ts';
import type { Experiment } from '../../core/experiment.ts';
import type { PageSection } from '../html/page.ts';
import { costScoreChart } from './cost-score.ts';
import { taskScatter } from './task-scatter.ts';

export interface ComparisonChartOptions {
  /** Makes each scatter point a link (the viewer's side-by-side traces of a task). */
  readonly taskHref?: (baselineId: string, candidateId: string, taskId: string) => string;
}

/**
 * The charts a comparison page shows after its forest plot: per candidate a scatter of the tasks'
 * scores against the baseline's, and one cost–score chart of all the experiments. They need the
 * experiments (their records), not only the comparison, so the caller hands both, in the same order.
 */
export function comparisonChartSections(
  comparison: Comparison,
  experiments: readonly Experiment[],
  options: ComparisonChartOptions = {},
): PageSection[] {
  const [baseline, ...candidates] = experiments;
  if (baseline === undefined) return [];
  const labels = comparison.experiments.map((e) => e.label);
  const { taskHref } = options;
  const scatters = candidates
    .map((candidate, i) => {
      const pairs = taskScorePairs(baseline, candidate);
      const ran = new Set([...baseline.records, ...candidate.records].map((r) => r.task_id));
      return `<figure data-pair="${i}">${taskScatter(pairs, {
        baselineLabel: labels[0] ?? baseline.id,
        candidateLabel: labels[i + 1] ?? candidate.id,
        leftOut: ran.size - pairs.length,
        ...(taskHref ? { href: (task: string) => taskHref(baseline.id, candidate.id, task) } : {}),
      })}</figure>`;
    })
    .join('');
  return [
    { id: 'task-scatter', title: 'Score per task', html: `<div class="charts">${scatters}</div>` },
    {
      id: 'cost-score',
      title: 'Cost and score',
      html: `<div class="charts"><figure>${costScoreChart(costScoreData(experiments))}</figure></div>`,
    },
  ];
}
