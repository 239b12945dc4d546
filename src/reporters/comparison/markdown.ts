import type { Comparison, FlippedTask, MetricComparison } from '../../compare/types.ts';
import { markdownCell } from '../markdown.ts';
import { formatInterval, formatPValue, passRate, signedValue } from './format.ts';

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
  return d.is_regression ? ' :red_circle:' : d.is_improvement ? ' :green_circle:' : '';
}

function flippedList(title: string, tasks: readonly FlippedTask[], max: number): string[] {
  if (tasks.length === 0) return [];
  const lines = [`**${title}** (${tasks.length})`, ''];
  for (const t of tasks.slice(0, max)) {
    const why = t.explanation ? ` — ${markdownCell(t.explanation, 140)}` : '';
    lines.push(
      `- \`${markdownCell(t.task_id, 60)}\` ${passRate(t.baseline_pass_rate)} → ${passRate(t.pass_rate)}${why}`,
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
  const [a, ...candidates] = comparison.experiments;
  const b = candidates[0];
  if (a === undefined || b === undefined) return '';
  const labels = comparison.experiments.map((e) => markdownCell(e.label, 40));
  const pair = comparison.pairs[0];
  const lines = [
    `### HarnessEval comparison: ${labels.join(' → ')}`,
    '',
    `Suite \`${markdownCell(a.suite.id, 80)}\` · ${pair?.shared_tasks ?? 0} shared tasks · paired tests of ${labels[1]} vs ${labels[0]} at α = ${comparison.alpha}`,
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
  for (const w of comparison.warnings.slice(0, 3)) lines.push(`> :warning: ${markdownCell(w, 200)}`);
  if (comparison.warnings.length > 0) lines.push('');

  const ordered = [...comparison.metrics]
    .map((m, i) => ({ m, i }))
    .sort((x, y) => rank(x.m) - rank(y.m) || x.i - y.i);
  const shown = ordered.slice(0, maxMetrics);
  const deltaHeads = candidates.length > 1 ? candidates.map((c) => `Δ ${markdownCell(c.label, 40)}`) : ['Δ'];
  lines.push(
    `| Metric | ${labels.join(' | ')} | ${deltaHeads.join(' | ')} | diff [95% CI] | p |`,
    `|:---|${labels.map(() => '---:').join('|')}|${deltaHeads.map(() => '---:').join('|')}|:---|---:|`,
  );
  for (const { m } of shown) {
    const d = m.deltas[0];
    const p = d?.paired ?? null;
    const diff = p ? `${signedValue(m, p.mean_difference)} ${formatInterval(m, p.ci95)}` : '-';
    const cells = [
      `${markdownCell(m.name, 60)}${mark(m)}`,
      ...m.values.map((v) => markdownCell(v.formatted_value, 30)),
      ...m.deltas.map((x) => x.percent_label),
      markdownCell(diff, 60),
      `${formatPValue(p?.p_value ?? null)}${p?.significant ? ' *' : ''}`,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  if (ordered.length > shown.length)
    lines.push('', `_${ordered.length - shown.length} more metrics not shown._`);
  lines.push(
    '',
    '_* significant (paired test over shared tasks); :red_circle: significant regression, :green_circle: significant improvement._',
    '',
  );

  if (pair) {
    lines.push(
      ...flippedList(`Regressions (pass → fail in ${labels[1]})`, pair.regressions, maxFlipped),
      ...flippedList(`Improvements (fail → pass in ${labels[1]})`, pair.improvements, maxFlipped),
    );
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
