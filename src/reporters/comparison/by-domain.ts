import type { DomainComparison, DomainMetricComparison } from '../../compare/by-domain.ts';
import type { Comparison, MetricComparison } from '../../compare/types.ts';
import { differenceInterval, formatPValue, signedValue, testShort } from './format.ts';

/**
 * The "By domain" section of a comparison, as plain cells for the console and Markdown views:
 * per metric, each domain's difference with its p (adjusted over every per-domain test) and test,
 * then the pooled stratified difference, its interval and p; refusals and weights as notes.
 */
export interface DomainView {
  readonly title: string;
  readonly weights: string;
  readonly head: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly notes: readonly string[];
}

const percent = (w: number) => `${(w * 100).toFixed(w * 100 === Math.round(w * 100) ? 0 : 1)}%`;

function domainCell(metric: MetricComparison, d: DomainMetricComparison['per_domain'][number]): string {
  const t = d.test;
  if (t === null) return 'n/a';
  return `${signedValue(metric, t.mean_difference)} (p ${formatPValue(t.p_adjusted ?? t.p_value)}, ${testShort(t)})`;
}

function pooledCells(metric: MetricComparison, m: DomainMetricComparison): string[] {
  const p = m.pooled;
  if (p === null) return ['not pooled', '', ''];
  if (p.test === null) return [signedValue(metric, p.mean_difference), '-', 'no test'];
  const test = p.test === 'sign_test' ? 'sign' : `t(${(p.df ?? 0).toFixed(1)})`;
  return [
    signedValue(metric, p.mean_difference),
    differenceInterval(metric, p.ci95),
    `${formatPValue(p.p_adjusted ?? p.p_value)}, ${test}${p.significant ? ' *' : ''}`,
  ];
}

export function domainView(comparison: Comparison, d: DomainComparison): DomainView {
  const label = (id: string) => comparison.experiments.find((e) => e.id === id)?.label ?? id;
  const metricOf = (name: string) => comparison.metrics.find((m) => m.name === name);
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const m of d.metrics) {
    const metric = metricOf(m.name);
    if (metric === undefined) continue;
    if (m.refused !== null) {
      notes.push(`${m.name} not pooled: ${m.refused}`);
      continue;
    }
    rows.push([
      m.name,
      ...m.per_domain.map((x) => domainCell(metric, x)),
      ...pooledCells(metric, m),
      signedValue(metric, m.raw_difference),
    ]);
    if (m.pooled?.reason) notes.push(`${m.name} pooled: no test — ${m.pooled.reason}`);
  }
  const adjusted = comparison.adjust === 'none' ? 'raw p' : `p adjusted (${comparison.adjust})`;
  notes.push(
    `Per domain: the paired test of that domain's tasks, ${adjusted} over every domain × metric test. ` +
      `Pooled: stratified paired t, each domain a stratum, Satterthwaite df, ${adjusted} over the metrics; ` +
      `* significant. "raw" is the unstratified difference over all shared tasks (docs/statistics.md).`,
  );
  return {
    title: `By domain: ${label(d.experiment_id)} vs ${label(d.baseline_id)}`,
    weights: `Weights (${d.weighting === 'equal' ? 'equal per domain' : 'by shared tasks'}): ${d.domains
      .map((x) => `${x.name} ${percent(x.weight)} (${x.shared_tasks} tasks)`)
      .join(', ')}`,
    head: ['', ...d.domains.map((x) => x.name), 'pooled', '95% CI', 'p', 'raw'],
    rows,
    notes,
  };
}
