import type { Comparison, FlippedTask, MetricComparison } from '../../compare/types.ts';
import { markdownCell } from '../markdown.ts';
import { domainView } from './by-domain.ts';
import {
  adjustLabel,
  differenceInterval,
  flakyLine,
  formatPValue,
  metricNumber,
  passRate,
  sequentialLine,
  signedValue,
  testShort,
} from './format.ts';
import { comparisonHeading } from './heading.ts';
import { shownValues } from './values.ts';

export interface ComparisonMarkdownOptions {
  /** Metric rows before "N more metrics" (default 12). */
  readonly maxMetrics?: number;
  /** Flipped tasks listed per direction (default 6). */
  readonly maxFlipped?: number;
  /** Violations listed (default 6). */
  readonly maxViolations?: number;
}

/** Significant regressions first, then significant improvements, then the rest in their order. */
function rank(metric: MetricComparison): number {
  const d = metric.deltas[0];
  if (d?.paired?.significant && d.is_regression) return 0;
  if (d?.paired?.significant && d.is_improvement) return 1;
  if (d?.is_regression) return 2;
  return 3;
}

function mark(metric: MetricComparison): string {
  const d = metric.deltas[0];
  if (!d?.paired?.significant) return '';
  const arrow = (d.paired.mean_difference ?? 0) > 0 ? ' ▲' : ' ▼';
  return d.is_regression ? ` :red_circle:${arrow}` : d.is_improvement ? ` :green_circle:${arrow}` : arrow;
}

function flippedList(title: string, tasks: readonly FlippedTask[], max: number): string[] {
  if (tasks.length === 0) return [];
  const lines = [`**${title}** (${tasks.length})`, ''];
  for (const t of tasks.slice(0, max)) {
    const why = t.explanation ? ` — ${markdownCell(t.explanation, 140)}` : '';
    const flaky = t.flaky ? ' _(flaky)_' : '';
    lines.push(
      `- \`${markdownCell(t.task_id, 60)}\` ${passRate(t.baseline_pass_rate)} → ${passRate(t.pass_rate)}${flaky}${why}`,
    );
  }
  if (tasks.length > max) lines.push(`- … ${tasks.length - max} more`);
  lines.push('');
  return lines;
}

/**
 * A comparison sized for a pull-request comment (about 60 lines at most): the verdict and any
 * broken regression rules, a compact table with significant regressions first, and the tasks
 * that flipped. Everything from users and agents is escaped for GFM.
 */
export function renderComparisonMarkdown(
  comparison: Comparison,
  options: ComparisonMarkdownOptions = {},
): string {
  const maxMetrics = options.maxMetrics ?? 12;
  const maxFlipped = options.maxFlipped ?? 6;
  const maxViolations = options.maxViolations ?? 8;
  const label = (text: string) => markdownCell(text, 40);
  const heading = comparisonHeading(comparison, label);
  if (heading === undefined) return '';
  const { baseline: a, candidates } = heading;
  const b = candidates[0];
  if (b === undefined) return '';
  const labels = heading.labels.map(label);
  const adjust =
    heading.adjustment === undefined
      ? 'no multiplicity adjustment'
      : `${heading.adjustment}-adjusted over the metrics`;
  const pair = comparison.pairs[0];
  const scope = heading.scopes[0]?.scope ?? 'no shared task';
  const lines = [
    `### HarnessEval comparison: ${labels.join(' → ')}`,
    '',
    `Suite \`${markdownCell(a.suite.id, 80)}\` · ${scope} · paired tests of ${labels[1]} vs ${labels[0]} at α = ${heading.alpha}, ${adjust}`,
    '',
  ];
  const violations = comparison.violations;
  if (violations.length > 0) {
    lines.push(
      `:x: **${violations.length} regression rule${violations.length === 1 ? '' : 's'} broken**`,
      '',
    );
    for (const v of violations.slice(0, maxViolations)) lines.push(`- ${markdownCell(v.message, 200)}`);
    if (violations.length > maxViolations) lines.push(`- … ${violations.length - maxViolations} more`);
    lines.push('');
  }
  for (const w of heading.warnings.slice(0, 3)) lines.push(`> :warning: ${markdownCell(w, 200)}`);
  if (heading.warnings.length > 0) lines.push('');

  const ordered = [...comparison.metrics.filter((m) => m.aggregate !== 'sum')]
    .map((m, i) => ({ m, i }))
    .sort((x, y) => rank(x.m) - rank(y.m) || x.i - y.i);
  const shown = ordered.slice(0, maxMetrics);
  const deltaHeads = candidates.length > 1 ? candidates.map((c) => `Δ ${markdownCell(c.label, 40)}`) : ['Δ'];
  const values = shownValues(comparison);
  const valueHeads = values.heads.map((h) => markdownCell(h, 60));
  const adjusted = comparison.adjust === 'none' ? [] : [`p ${adjustLabel(comparison)}`];
  lines.push(
    `| Metric | ${valueHeads.join(' | ')} | ${deltaHeads.join(' | ')} | diff [95% CI] | p | ${[...adjusted, 'test'].join(' | ')} |`,
    `|:---|${valueHeads.map(() => '---:').join('|')}|${deltaHeads.map(() => '---:').join('|')}|:---|---:|${adjusted.map(() => '---:|').join('')}:---|`,
  );
  for (const { m } of shown) {
    const d = m.deltas[0];
    const p = d?.paired ?? null;
    const diff = p ? `${signedValue(m, p.mean_difference)} ${differenceInterval(m, p.ci95)}` : '-';
    const cells = [
      `${markdownCell(m.name, 60)}${mark(m)}`,
      ...values.cells(m).map((v) => markdownCell(v, 30)),
      ...m.deltas.map((x) => x.percent_label),
      markdownCell(diff, 60),
      formatPValue(p?.p_value ?? null),
      ...(adjusted.length > 0 ? [`${formatPValue(p?.p_adjusted ?? null)}${p?.significant ? ' *' : ''}`] : []),
      testShort(p),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  if (ordered.length > shown.length)
    lines.push('', `_${ordered.length - shown.length} more metrics not shown._`);
  lines.push(
    '',
    `_* significant after adjustment (paired test over shared tasks; McNemar = exact McNemar, t(df) = paired t, sign = exact sign test); :red_circle: significant regression, :green_circle: significant improvement, ▲/▼ its direction._`,
    '',
  );
  for (const m of comparison.metrics.filter((x) => x.aggregate === 'sum')) {
    const d = m.deltas[0];
    const p = d?.paired;
    if (d === undefined) continue;
    const stats = p
      ? ` (${signedValue(m, p.mean_difference)} ${differenceInterval(m, p.ci95)}, p ${formatPValue(p.p_value)})`
      : '';
    lines.push(
      `**Total ${markdownCell(m.name, 40)}** over ${pair?.shared_tasks ?? 0} shared tasks: ${metricNumber(m, d.baseline_value)} → ${metricNumber(m, d.value)}${stats}`,
      '',
    );
  }
  const sequential = comparison.metrics.flatMap((m) => {
    const line = m.deltas[0] ? sequentialLine(m, m.deltas[0]) : undefined;
    return line ? [`- ${markdownCell(line, 200)}`] : [];
  });
  if (sequential.length > 0)
    lines.push('**Sequential** (always-valid confidence sequence):', '', ...sequential, '');
  const byDomain = comparison.by_domain?.find((d) => d.experiment_id === b.id);
  if (byDomain !== undefined) {
    const view = domainView(comparison, byDomain);
    const cells = (row: readonly string[]) => `| ${row.map((cell) => markdownCell(cell, 60)).join(' | ')} |`;
    lines.push(
      `**${markdownCell(view.title, 120)}** · ${markdownCell(view.weights, 200)}`,
      '',
      cells(view.head),
      `|:---|${view.head
        .slice(1)
        .map(() => '---:')
        .join('|')}|`,
      ...view.rows.map(cells),
      '',
      ...view.notes.map((note) => `_${markdownCell(note, 400)}_`),
      '',
    );
  }

  if (pair) {
    lines.push(
      ...flippedList(`Regressions (pass → fail in ${labels[1]})`, pair.regressions, maxFlipped),
      ...flippedList(`Improvements (fail → pass in ${labels[1]})`, pair.improvements, maxFlipped),
    );
    if (pair.flaky.length > 0) {
      lines.push(
        `**Flaky tasks** (${pair.flaky.length}: the verdict changes between attempts of one version)`,
        '',
      );
      for (const t of pair.flaky.slice(0, maxFlipped)) lines.push(`- ${markdownCell(flakyLine(t), 160)}`);
      lines.push('');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
