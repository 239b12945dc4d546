import type { Comparison, FlippedTask } from '../../compare/types.ts';
import { escapeHtml, renderPage } from '../html/index.ts';
import { formatInterval, formatPValue, passRate, signedValue, verdictNote } from './format.ts';

function cellClass(isRegression: boolean, isImprovement: boolean): string {
  return isRegression ? ' class="fail"' : isImprovement ? ' class="pass"' : '';
}

function flippedRows(tasks: readonly FlippedTask[], kind: string): string {
  return tasks
    .map(
      (t) =>
        `<tr data-search="${escapeHtml(`${t.task_id} ${t.explanation}`)}"><td>${escapeHtml(kind)}</td>` +
        `<td>${escapeHtml(t.task_id)}</td><td>${passRate(t.baseline_pass_rate)} → ${passRate(t.pass_rate)}</td>` +
        `<td>${escapeHtml(t.explanation)}</td></tr>`,
    )
    .join('');
}

/**
 * A comparison as one self-contained HTML page (the shared `renderPage` shell): broken rules,
 * the metric table with each experiment's value, the change, and the paired test of the first
 * candidate, then the flipped tasks. Every string from users and agents is escaped.
 */
export function renderComparisonHtml(
  comparison: Comparison,
  options: { readonly nonce?: string } = {},
): string {
  const labels = comparison.experiments.map((e) => e.label);
  const head = [
    'Metric',
    ...labels,
    ...comparison.experiments.slice(1).map((e) => `Δ ${e.label}`),
    'diff',
    '95% CI',
    'p',
    'note',
  ];
  const rows = comparison.metrics
    .map((m) => {
      const d0 = m.deltas[0];
      const p = d0?.paired ?? null;
      const cells = [
        `<td>${escapeHtml(m.name)}</td>`,
        ...m.values.map((v) => `<td class="num">${escapeHtml(v.formatted_value)}</td>`),
        ...m.deltas.map(
          (d) =>
            `<td class="num"${cellClass(d.is_regression, d.is_improvement)}>${escapeHtml(d.percent_label)}</td>`,
        ),
        `<td class="num">${escapeHtml(signedValue(m, p?.mean_difference ?? null))}</td>`,
        `<td>${escapeHtml(formatInterval(m, p?.ci95 ?? null))}</td>`,
        `<td class="num">${escapeHtml(formatPValue(p?.p_value ?? null))}${p?.significant ? ' *' : ''}</td>`,
        `<td>${d0 ? escapeHtml(verdictNote(m, d0)) : ''}</td>`,
      ];
      return `<tr data-search="${escapeHtml(m.name)}">${cells.join('')}</tr>`;
    })
    .join('');
  const table =
    `<table data-table><thead><tr>${head.map((h) => `<th data-sort>${escapeHtml(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows}</tbody></table>` +
    `<p>* significant at α = ${comparison.alpha} (paired test over the tasks both ran).</p>`;
  const sections = [];
  if (comparison.violations.length > 0) {
    sections.push({
      id: 'violations',
      title: `Regression rules broken (${comparison.violations.length})`,
      html: `<ul>${comparison.violations.map((v) => `<li class="fail">${escapeHtml(v.message)}</li>`).join('')}</ul>`,
    });
  }
  if (comparison.warnings.length > 0) {
    sections.push({
      id: 'warnings',
      title: 'Warnings',
      html: `<ul>${comparison.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>`,
    });
  }
  sections.push({ id: 'metrics', title: 'Metrics', html: table });
  for (const [i, pair] of comparison.pairs.entries()) {
    const flips =
      flippedRows(pair.regressions, 'pass → fail') + flippedRows(pair.improvements, 'fail → pass');
    if (flips === '') continue;
    sections.push({
      id: `flipped-${i}`,
      title: `Flipped tasks: ${labels[i + 1] ?? pair.experiment_id} vs ${labels[0] ?? pair.baseline_id}`,
      html:
        '<table data-table><thead><tr><th data-sort>Change</th><th data-sort>Task</th><th>Pass rate</th><th>Why</th></tr></thead>' +
        `<tbody>${flips}</tbody></table>`,
    });
  }
  return renderPage({
    title: `Comparison: ${labels.join(' vs ')}`,
    subtitle: `Suite ${[...new Set(comparison.experiments.map((e) => e.suite.id))].join(', ')}`,
    sections,
    data: { comparison: { experiments: comparison.experiments, alpha: comparison.alpha } },
    ...(options.nonce ? { nonce: options.nonce } : {}),
  });
}
