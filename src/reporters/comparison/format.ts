import type {
  Comparison,
  MetricComparison,
  MetricDelta,
  PairComparison,
  PairedMetric,
} from '../../compare/types.ts';
import type { FlakyTask } from '../../metrics/flaky.ts';
import {
  formatDifference,
  formatInterval,
  formatMetricNumber,
  formatPValue,
  type MetricUnitOf,
} from '../../metrics/format.ts';

/** Shared by the console, markdown and HTML views, so all three say the same thing the same way. */

function unitOf(metric: MetricComparison): MetricUnitOf {
  return {
    formatted_value: metric.values.find((v) => v.value !== null)?.formatted_value ?? '',
    unit: metric.unit,
  };
}

/** A number in the metric's unit: "80.0%", "$0.0123". */
export function metricNumber(metric: MetricComparison, value: number | null): string {
  return formatMetricNumber(unitOf(metric), value);
}

/** A difference in the metric's unit with its sign: "+0.250", "-$1.20", "+25.0 pp". */
export function signedValue(metric: MetricComparison, value: number | null): string {
  return formatDifference(unitOf(metric), value);
}

/** The interval of a difference: "[+1.2 pp, +9.8 pp]", or "-". */
export function differenceInterval(
  metric: MetricComparison,
  interval: readonly [number, number] | null,
): string {
  return formatInterval(unitOf(metric), interval, { difference: true });
}

export { formatPValue };

const ADJUST_LABELS = { holm: 'Holm', bh: 'BH', none: 'none' } as const;

export function adjustLabel(comparison: Pick<Comparison, 'adjust'>): string {
  return ADJUST_LABELS[comparison.adjust];
}

/** The test in a few characters, for a table column: "t(59)", "McNemar", "sign", "CR1 t(9)". */
export function testShort(paired: PairedMetric | null): string {
  if (paired === null) return '-';
  switch (paired.test) {
    case 'paired_t':
      return paired.df === null ? 't' : `t(${paired.df})`;
    case 'paired_z':
      return 'z';
    case 'cluster_t':
      return paired.df === null ? 'CR1 t' : `CR1 t(${paired.df})`;
    case 'cluster_z':
      return 'cluster z';
    case 'sign_test':
      return 'sign';
    case 'mcnemar_exact':
      return 'McNemar';
  }
}

/** The test in words, with what it was run on: the "exact test line" of a metric. */
export function testLine(metric: MetricComparison, delta: MetricDelta): string {
  const p = delta.paired;
  if (p === null) {
    return delta.basis === 'all_tasks'
      ? 'no paired test: no task was run by both'
      : 'no paired test (the metric has no per-task values); values over the shared tasks';
  }
  const over = `${p.n} shared task${p.n === 1 ? '' : 's'}`;
  const total = p.scale === 'total' ? '; the statistics are totals over these tasks' : '';
  switch (p.test) {
    case 'mcnemar_exact': {
      const m = p.mcnemar;
      return (
        `McNemar exact test on ${over}: ${m?.b ?? 0} pass→fail, ${m?.c ?? 0} fail→pass ` +
        `(mid-p ${formatPValue(m?.mid_p_value)}, shown only); conditional exact 95% CI${total}`
      );
    }
    case 'sign_test':
      return `exact sign test on ${over}: the difference is the same on every task (no spread for a t test)${total}`;
    case 'cluster_t':
      return `paired t with CR1 cluster-robust SE, ${p.clusters} clusters, ${p.df ?? '?'} df, over ${over}${total}`;
    case 'cluster_z':
      return `paired z with a clustered SE, ${p.clusters} clusters, over ${over}${total}`;
    case 'paired_t':
      return `paired t test, ${p.df ?? '?'} df, over ${over} (per-task means over epochs)${total}`;
    case 'paired_z':
      return `paired z test over ${over}${total}`;
    default: {
      const unreachable: never = p.test;
      return `${metric.name}: ${String(unreachable)}`;
    }
  }
}

/**
 * What the test concluded: "significant improvement", or for a non-significant result what this
 * many tasks could have detected ("n.s.; MDE 12.0 pp, ~64 tasks needed"), so that "no difference
 * found" is never read as "no difference".
 */
export function verdictNote(metric: MetricComparison, delta: MetricDelta): string {
  const paired = delta.paired;
  if (paired === null) return delta.basis === 'all_tasks' ? 'not paired' : 'no paired data';
  if (paired.n < 2) return `${paired.n} shared task`;
  if (paired.stderr === 0 && paired.mean_difference === 0) return 'no change on any task';
  if (paired.significant) {
    const arrow = (paired.mean_difference ?? 0) > 0 ? '▲' : '▼';
    return delta.is_regression
      ? `${arrow} significant regression`
      : delta.is_improvement
        ? `${arrow} significant improvement`
        : `${arrow} significant`;
  }
  const parts: string[] = [];
  if (paired.significant_unadjusted)
    parts.push(`p < α only before ${paired.adjust === 'bh' ? 'BH' : 'Holm'}`);
  if (paired.minimum_detectable_effect !== null)
    parts.push(
      `MDE ${formatDifference(unitOf(metric), paired.minimum_detectable_effect).replace(/^\+/, '')}`,
    );
  if (paired.tasks_needed !== null && !paired.significant_unadjusted)
    parts.push(`~${paired.tasks_needed} tasks for 80% power at this difference`);
  return parts.length > 0 ? `n.s.; ${parts.join(', ')}` : 'n.s.';
}

export function passRate(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** "paired over 30 of 50 tasks (10 only in v0.3.1, 10 only in v0.4.0)". */
export function scopeLine(pair: PairComparison, baseline: string, candidate: string): string {
  const parts = [`paired over ${pair.shared_tasks} of ${pair.total_tasks} tasks`];
  const only: string[] = [];
  if (pair.only_in_baseline.length > 0) only.push(`${pair.only_in_baseline.length} only in ${baseline}`);
  if (pair.only_in_candidate.length > 0) only.push(`${pair.only_in_candidate.length} only in ${candidate}`);
  if (pair.excluded.length > 0) only.push(`${pair.excluded.length} flaky left out`);
  if (only.length > 0) parts.push(`(${only.join(', ')})`);
  return parts.join(' ');
}

/** "t3 (2 of 5 attempts passed, flip rate 0.60, 2 runs)". */
export function flakyLine(task: FlakyTask): string {
  const runs = task.runs > 1 ? `, ${task.runs} runs` : '';
  return `${task.task_id} (${task.passes} of ${task.trials} attempts passed, flip rate ${task.flip_rate.toFixed(2)}${runs})`;
}

/** "success_rate: different after 23 tasks, CS [+2.1 pp, +31.0 pp]". */
export function sequentialLine(metric: MetricComparison, delta: MetricDelta): string | undefined {
  const s = delta.sequential;
  if (s === undefined) return undefined;
  const cs = differenceInterval(metric, s.interval);
  const margin = signedValue(metric, s.margin).replace(/^\+/, '±');
  if (s.decision === 'different')
    return `${metric.name}: different after ${s.decided_after} of ${s.tasks} tasks (CS ${cs})`;
  if (s.decision === 'equivalent')
    return `${metric.name}: within ${margin} after ${s.decided_after} of ${s.tasks} tasks (CS ${cs})`;
  return `${metric.name}: undecided after ${s.tasks} tasks (CS ${cs}, margin ${margin}): add tasks or epochs`;
}
