import type { Comparison, FlippedTask, MetricComparison } from '../../compare/types.ts';
import { escapeControl } from '../../util/terminal-text.ts';
import { textTable } from '../text-table.ts';
import { formatInterval, formatPValue, mcnemarNote, passRate, signedValue, verdictNote } from './format.ts';

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

function statsRows(comparison: Comparison, candidate: number) {
  return comparison.metrics.map((m: MetricComparison) => {
    const d = m.deltas[candidate];
    const p = d?.paired ?? null;
    return [
      signedValue(m, p?.mean_difference ?? null),
      formatInterval(m, p?.ci95 ?? null),
      formatPValue(p?.p_value ?? null),
      p?.significant ? '*' : '',
      d ? verdictNote(m, d) : '',
    ];
  });
}

function flippedLines(title: string, tasks: readonly FlippedTask[], mark: string, max: number): string[] {
  if (tasks.length === 0) return [];
  const lines = [title];
  for (const t of tasks.slice(0, max)) {
    const rates = `${passRate(t.baseline_pass_rate)} → ${passRate(t.pass_rate)}`;
    lines.push(
      `  ${mark} ${escapeControl(t.task_id)}  ${rates}${t.explanation ? `  ${escapeControl(t.explanation)}` : ''}`,
    );
  }
  if (tasks.length > max) lines.push(`  … ${tasks.length - max} more`);
  return lines;
}

/**
 * The seed's comparison table — a row per metric, a column per experiment, the change against A
 * as a percentage — followed by the paired test of the first candidate against A (difference,
 * 95% CI, p, `*` when significant, and what a non-significant test could have detected), then
 * the tasks that flipped.
 */
export function renderComparisonConsole(
  comparison: Comparison,
  options: ComparisonConsoleOptions = {},
): string {
  const paint = options.paint ?? plain;
  const max = options.maxFlipped ?? 20;
  const [a, ...candidates] = comparison.experiments;
  if (a === undefined) return '';
  const names = new Set(comparison.experiments.map((e) => e.harness.name));
  const title =
    names.size === 1
      ? `Comparison: ${a.harness.name} ${comparison.experiments.map((e) => e.label).join(' vs ')}`
      : `Comparison: ${comparison.experiments.map((e) => e.label).join(' vs ')}`;
  const suites = [...new Set(comparison.experiments.map((e) => e.suite.id))];
  const lines = [escapeControl(title), `Suite: ${escapeControl(suites.join(', '))}`, '---'];

  const first = candidates[0];
  const columns = [
    { head: '' },
    ...comparison.experiments.map((e) => ({ head: e.label, align: 'right' as const })),
    ...candidates.map((c) => ({
      head: candidates.length > 1 ? `Δ ${c.label}` : 'delta',
      align: 'right' as const,
    })),
    ...(first
      ? [
          { head: 'diff', align: 'right' as const },
          { head: '95% CI' },
          { head: 'p', align: 'right' as const },
          { head: '' },
          { head: 'note' },
        ]
      : []),
  ];
  const stats = statsRows(comparison, 0);
  const rows = comparison.metrics.map((m, r) => [
    m.name,
    ...m.values.map((v) => v.formatted_value),
    ...m.deltas.map((d) => d.percent_label),
    ...(first ? (stats[r] ?? []) : []),
  ]);
  const deltaStart = 1 + comparison.experiments.length;
  lines.push(
    ...textTable(columns, rows, (r, c, text) => {
      const metric = comparison.metrics[r];
      const delta = metric?.deltas[c - deltaStart];
      if (delta === undefined) {
        // The note column: colour a significant verdict.
        const d0 = metric?.deltas[0];
        if (c === columns.length - 1 && d0?.paired?.significant)
          return d0.is_regression ? paint.red(text) : d0.is_improvement ? paint.green(text) : text;
        return text;
      }
      return delta.is_regression ? paint.red(text) : delta.is_improvement ? paint.green(text) : text;
    }),
  );

  for (const [i, c] of candidates.entries()) {
    if (i > 0) {
      lines.push('', `Paired tests: ${escapeControl(c.label)} vs ${escapeControl(a.label)}`);
      const rowsI = statsRows(comparison, i).map((row, r) => [comparison.metrics[r]?.name ?? '', ...row]);
      lines.push(
        ...textTable(
          [
            { head: '' },
            { head: 'diff', align: 'right' },
            { head: '95% CI' },
            { head: 'p', align: 'right' },
            { head: '' },
            { head: 'note' },
          ],
          rowsI,
        ),
      );
    }
    const notes = comparison.metrics.flatMap((m) => {
      const note = m.deltas[i] ? mcnemarNote(m.deltas[i]) : undefined;
      return note ? [`${m.name}: ${note}`] : [];
    });
    const pair = comparison.pairs[i];
    if (pair === undefined) continue;
    lines.push(
      '',
      paint.dim(
        `${c.label} vs ${a.label}: paired over ${pair.shared_tasks} shared tasks; * = significant at α = ${comparison.alpha}`,
      ),
    );
    lines.push(...notes.map((n) => paint.dim(n)));
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
  }
  if (comparison.warnings.length > 0)
    lines.push('', ...comparison.warnings.map((w) => paint.yellow(`warning: ${escapeControl(w)}`)));
  if (comparison.violations.length > 0) {
    lines.push('', paint.red(`Regression rules broken: ${comparison.violations.length}`));
    for (const v of comparison.violations) lines.push(`  ✗ ${escapeControl(v.message)}`);
  }
  return `${lines.join('\n')}\n`;
}
