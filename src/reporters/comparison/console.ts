import type { Comparison, FlippedTask, MetricComparison, MetricDelta } from '../../compare/types.ts';
import { escapeControl } from '../../util/terminal-text.ts';
import { textTable } from '../text-table.ts';
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
  testLine,
  testShort,
  verdictNote,
} from './format.ts';
import { comparisonHeading } from './heading.ts';
import { shownValues } from './values.ts';

/** Colours for the terminal (the CLI's `paint(enabled)` fits); identity functions when absent. */
export interface Paint {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
}

export interface ComparisonConsoleOptions {
  readonly paint?: Paint;
  /** Flipped tasks listed per direction before "… N more". */
  readonly maxFlipped?: number;
}

const plain: Paint = { red: (s) => s, green: (s) => s, yellow: (s) => s, dim: (s) => s };

function statsCells(comparison: Comparison, m: MetricComparison, d: MetricDelta | undefined): string[] {
  const p = d?.paired ?? null;
  return [
    signedValue(m, p?.mean_difference ?? null),
    differenceInterval(m, p?.ci95 ?? null),
    formatPValue(p?.p_value ?? null),
    comparison.adjust === 'none' ? '' : formatPValue(p?.p_adjusted ?? null),
    testShort(p),
    d ? verdictNote(m, d) : '',
  ];
}

function statsColumns(comparison: Comparison) {
  return [
    { head: 'diff', align: 'right' as const },
    { head: '95% CI' },
    { head: 'p', align: 'right' as const },
    { head: comparison.adjust === 'none' ? '' : `p ${adjustLabel(comparison)}`, align: 'right' as const },
    { head: 'test' },
    { head: 'note' },
  ];
}

function flippedLines(title: string, tasks: readonly FlippedTask[], mark: string, max: number): string[] {
  if (tasks.length === 0) return [];
  const lines = [title];
  for (const t of tasks.slice(0, max)) {
    const rates = `${passRate(t.baseline_pass_rate)} → ${passRate(t.pass_rate)}`;
    const flaky = t.flaky ? '  (flaky)' : '';
    lines.push(
      `  ${mark} ${escapeControl(t.task_id)}  ${rates}${flaky}${t.explanation ? `  ${escapeControl(t.explanation)}` : ''}`,
    );
  }
  if (tasks.length > max) lines.push(`  … ${tasks.length - max} more`);
  return lines;
}

function colour(
  paint: Paint,
  delta: MetricDelta | undefined,
  text: string,
  onlySignificant: boolean,
): string {
  if (delta === undefined || (onlySignificant && !delta.paired?.significant)) return text;
  return delta.is_regression ? paint.red(text) : delta.is_improvement ? paint.green(text) : text;
}

/**
 * The seed's comparison table — a row per metric, a column per experiment, the change against A
 * as a percentage — with the paired test of the first candidate against A (difference, 95% CI,
 * p and p adjusted over the metrics, the test, and what a non-significant test could have
 * detected); totals (cost) in a summary below; then the tasks that flipped, flaky tasks, the
 * test behind each row, warnings and broken rules.
 */
export function renderComparisonConsole(
  comparison: Comparison,
  options: ComparisonConsoleOptions = {},
): string {
  const paint = options.paint ?? plain;
  const max = options.maxFlipped ?? 20;
  const heading = comparisonHeading(comparison, escapeControl);
  if (heading === undefined) return '';
  const { baseline: a, candidates } = heading;
  const title = `Comparison: ${heading.harness === undefined ? '' : `${heading.harness} `}${heading.labels.join(' vs ')}`;
  const lines = [escapeControl(title), `Suite: ${escapeControl(heading.suites.join(', '))}`];
  for (const { candidate, scope } of heading.scopes)
    lines.push(`${escapeControl(candidate)} vs ${escapeControl(a.label)}: ${scope}`);
  lines.push('---');

  const rows = comparison.metrics.filter((m) => m.aggregate !== 'sum');
  const totals = comparison.metrics.filter((m) => m.aggregate === 'sum');
  const first = candidates[0];
  const { heads, cells } = shownValues(comparison);
  const columns = [
    { head: '' },
    ...heads.map((head) => ({ head, align: 'right' as const })),
    ...candidates.map((c) => ({
      head: candidates.length > 1 ? `Δ ${c.label}` : 'delta',
      align: 'right' as const,
    })),
    ...(first ? statsColumns(comparison) : []),
  ];
  const table = rows.map((m) => [
    m.name,
    ...cells(m),
    ...m.deltas.map((d) => d.percent_label),
    ...(first ? statsCells(comparison, m, m.deltas[0]) : []),
  ]);
  const deltaStart = 1 + heads.length;
  lines.push(
    ...textTable(columns, table, (r, c, text) => {
      const metric = rows[r];
      const delta = metric?.deltas[c - deltaStart];
      if (delta !== undefined && c < deltaStart + candidates.length) return colour(paint, delta, text, false);
      // The note column: colour a significant verdict.
      if (c === columns.length - 1) return colour(paint, metric?.deltas[0], text, true);
      return text;
    }),
  );

  for (const [i, c] of candidates.entries()) {
    if (i > 0) {
      lines.push('', `Paired tests: ${escapeControl(c.label)} vs ${escapeControl(a.label)}`);
      const more = rows.map((m) => [m.name, ...statsCells(comparison, m, m.deltas[i])]);
      lines.push(...textTable([{ head: '' }, ...statsColumns(comparison)], more));
    }
    const pair = comparison.pairs[i];
    if (pair === undefined) continue;
    const adjust =
      heading.adjustment === undefined
        ? 'no adjustment for the number of metrics'
        : `"significant" uses p adjusted over the metrics (${heading.adjustment})`;
    lines.push(
      '',
      paint.dim(`${c.label} vs ${a.label}: α = ${heading.alpha}; ${adjust}; ▲/▼ = a significant rise/fall`),
    );
    for (const m of rows) {
      const d = m.deltas[i];
      if (d?.paired) lines.push(paint.dim(`  ${m.name}: ${testLine(m, d)}`));
    }
    for (const m of totals) {
      const d = m.deltas[i];
      if (d === undefined) continue;
      const p = d.paired;
      const stats = p
        ? ` (${signedValue(m, p.mean_difference)}, 95% CI ${differenceInterval(m, p.ci95)}, p ${formatPValue(p.p_value)}, ${testShort(p)})`
        : '';
      lines.push(
        `Total ${m.name} over ${pair.shared_tasks} shared tasks: ${metricNumber(m, d.baseline_value)} → ${metricNumber(m, d.value)}${stats}`,
      );
    }
    const sequential = comparison.metrics.flatMap((m) => {
      const d = m.deltas[i];
      const line = d ? sequentialLine(m, d) : undefined;
      return line ? [`  ${line}`] : [];
    });
    if (sequential.length > 0)
      lines.push(
        '',
        `Sequential (always-valid confidence sequence, α = ${comparison.alpha}):`,
        ...sequential,
      );
    const flips = [
      ...flippedLines(
        paint.red(`Regressions (${escapeControl(c.label)}: pass → fail): ${pair.regressions.length}`),
        pair.regressions,
        '✗',
        max,
      ),
      ...flippedLines(
        paint.green(`Improvements (${escapeControl(c.label)}: fail → pass): ${pair.improvements.length}`),
        pair.improvements,
        '✓',
        max,
      ),
    ];
    if (flips.length > 0) lines.push('', ...flips);
    if (pair.flaky.length > 0) {
      lines.push(
        '',
        paint.yellow(
          `Flaky tasks (the verdict changes between attempts of one version): ${pair.flaky.length}`,
        ),
      );
      for (const t of pair.flaky.slice(0, max)) lines.push(`  ~ ${escapeControl(flakyLine(t))}`);
    }
  }
  for (const d of comparison.by_domain ?? []) {
    const view = domainView(comparison, d);
    const clean = (row: readonly string[]) => row.map((cell) => escapeControl(cell));
    lines.push('', escapeControl(view.title), escapeControl(view.weights));
    lines.push(
      ...textTable(
        clean(view.head).map((head, i) => ({ head, ...(i === 0 ? {} : { align: 'right' as const }) })),
        view.rows.map(clean),
      ),
    );
    lines.push(...view.notes.map((note) => paint.dim(`  ${escapeControl(note)}`)));
  }
  if (heading.warnings.length > 0)
    lines.push('', ...heading.warnings.map((w) => paint.yellow(`warning: ${escapeControl(w)}`)));
  if (comparison.violations.length > 0) {
    lines.push('', paint.red(`Regression rules broken: ${comparison.violations.length}`));
    for (const v of comparison.violations) lines.push(`  ✗ ${escapeControl(v.message)}`);
  }
  return `${lines.join('\n')}\n`;
}
