import type { Comparison, FlippedTask, MetricDelta } from '../../compare/types.ts';
import { escapeHtml, renderPage } from '../html/index.ts';
import type { PageSection, PageShellOptions } from '../html/page.ts';
import { forestPlot } from './forest-plot.ts';
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
import { type ComparisonHeading, comparisonHeading } from './heading.ts';
import { shownValues } from './values.ts';

/** `pass` (better) or `fail` (worse) for colour; '' when neither, or not significant and `onlySignificant`. */
function tone(d: MetricDelta | undefined, onlySignificant: boolean): string {
  if (d === undefined || (onlySignificant && !d.paired?.significant)) return '';
  return d.is_regression ? 'fail' : d.is_improvement ? 'pass' : '';
}

/** "▲ +27.3%" for a significant rise, "▼ -5.0%" for a fall, the bare label otherwise. */
function arrowed(d: MetricDelta): string {
  if (!d.paired?.significant || d.delta === null || d.delta === 0) return d.percent_label;
  return `${d.delta > 0 ? '▲' : '▼'} ${d.percent_label}`;
}

function flippedRows(tasks: readonly FlippedTask[], kind: string): string {
  return tasks
    .map(
      (t) =>
        `<tr data-search="${escapeHtml(`${t.task_id} ${t.explanation}`)}"><td>${escapeHtml(kind)}</td>` +
        `<td>${escapeHtml(t.task_id)}${t.flaky ? ' <span class="badge">flaky</span>' : ''}</td>` +
        `<td>${passRate(t.baseline_pass_rate)} → ${passRate(t.pass_rate)}</td>` +
        `<td class="explanation">${escapeHtml(t.explanation)}</td></tr>`,
    )
    .join('');
}

function headerSection(comparison: Comparison, heading: ComparisonHeading | undefined): PageSection {
  const rows = comparison.experiments
    .map(
      (e, i) =>
        `<tr><td>${i === 0 ? 'baseline' : 'candidate'}</td><td>${escapeHtml(e.label)}</td>` +
        `<td>${escapeHtml(`${e.harness.name} ${e.harness.version}`)}</td><td><code>${escapeHtml(e.id)}</code></td>` +
        `<td>${escapeHtml(e.created_at.slice(0, 19).replace('T', ' '))}</td><td class="num">${e.tasks}</td>` +
        `<td class="num">${e.epochs}</td><td>${escapeHtml(e.status)}</td></tr>`,
    )
    .join('');
  const scopes = (heading?.scopes ?? [])
    .map(
      ({ candidate, scope }) =>
        `<li>${escapeHtml(`${candidate} vs ${heading?.baseline.label ?? ''}: ${scope}`)}</li>`,
    )
    .join('');
  return {
    id: 'experiments',
    title: 'Experiments',
    html:
      '<table><thead><tr><th>Role</th><th>Label</th><th>Harness</th><th>Experiment</th><th>Created (UTC)</th>' +
      `<th class="num">Tasks</th><th class="num">Epochs</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table>` +
      `<ul class="scope">${scopes}</ul>`,
  };
}

function metricsSection(comparison: Comparison): PageSection {
  const values = shownValues(comparison);
  const rows = comparison.metrics.filter((m) => m.aggregate !== 'sum');
  const adjusted = comparison.adjust === 'none' ? [] : [`p ${adjustLabel(comparison)}`];
  const head = [
    'Metric',
    ...values.heads,
    ...comparison.experiments.slice(1).map((e) => `Δ ${e.label}`),
    'diff',
    '95% CI',
    'p',
    ...adjusted,
    'test',
    'note',
  ];
  const body = rows
    .map((m) => {
      const d0 = m.deltas[0];
      const p = d0?.paired ?? null;
      const cells = [
        `<td>${escapeHtml(m.name)}</td>`,
        ...values.cells(m).map((v) => `<td class="num">${escapeHtml(v)}</td>`),
        ...m.deltas.map((d) => `<td class="num ${tone(d, false)}">${escapeHtml(arrowed(d))}</td>`),
        `<td class="num">${escapeHtml(signedValue(m, p?.mean_difference ?? null))}</td>`,
        `<td>${escapeHtml(differenceInterval(m, p?.ci95 ?? null))}</td>`,
        `<td class="num">${escapeHtml(formatPValue(p?.p_value ?? null))}</td>`,
        ...(adjusted.length > 0
          ? [
              `<td class="num">${escapeHtml(formatPValue(p?.p_adjusted ?? null))}${p?.significant ? ' *' : ''}</td>`,
            ]
          : []),
        `<td>${escapeHtml(testShort(p))}</td>`,
        `<td class="${tone(d0, true)}">${d0 ? escapeHtml(verdictNote(m, d0)) : ''}</td>`,
      ];
      return `<tr data-search="${escapeHtml(m.name)}">${cells.join('')}</tr>`;
    })
    .join('');
  const tests = rows
    .flatMap((m) =>
      m.deltas[0] ? [`<li><b>${escapeHtml(m.name)}</b>: ${escapeHtml(testLine(m, m.deltas[0]))}</li>`] : [],
    )
    .join('');
  const adjust =
    comparison.adjust === 'none'
      ? 'p-values are not adjusted for the number of metrics'
      : `* significant at α = ${comparison.alpha} after ${adjustLabel(comparison)} adjustment over the metrics`;
  return {
    id: 'metrics',
    title: 'Metrics',
    html:
      `<table data-table><thead><tr>${head.map((h) => `<th data-sort>${escapeHtml(h)}</th>`).join('')}</tr></thead>` +
      `<tbody>${body}</tbody></table>` +
      `<p>${escapeHtml(adjust)}; ▲/▼ a significant rise or fall, green better, red worse (direction-aware).</p>` +
      `<h3>Tests</h3><ul class="tests">${tests}</ul>`,
  };
}

export interface ComparisonHtmlOptions extends PageShellOptions {
  /** Sections placed right after the forest plot (the viewer's per-task and cost–score charts). */
  readonly charts?: readonly PageSection[];
}

/**
 * A comparison as one self-contained HTML page (the shared `renderPage` shell): the experiments
 * (ids, dates, harness), broken rules and warnings, a forest plot of the paired differences, the
 * metric table with colour and arrows and the test behind each row, totals, the sequential
 * verdict, and the flipped and flaky tasks. Every string from users and agents is escaped.
 */
export function renderComparisonHtml(comparison: Comparison, options: ComparisonHtmlOptions = {}): string {
  const heading = comparisonHeading(comparison);
  const labels = heading?.labels ?? [];
  const sections: PageSection[] = [headerSection(comparison, heading)];
  if (comparison.violations.length > 0) {
    sections.push({
      id: 'violations',
      title: `Regression rules broken (${comparison.violations.length})`,
      html: `<ul class="violations">${comparison.violations.map((v) => `<li>${escapeHtml(v.message)}</li>`).join('')}</ul>`,
    });
  }
  const warnings = heading?.warnings ?? [];
  if (warnings.length > 0) {
    sections.push({
      id: 'warnings',
      title: 'Warnings',
      html: `<ul>${warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>`,
    });
  }
  const plots = comparison.pairs.map((_, i) => `<figure>${forestPlot(comparison, i)}</figure>`).join('');
  sections.push({ id: 'forest', title: 'Paired differences', html: `<div class="charts">${plots}</div>` });
  sections.push(...(options.charts ?? []));
  sections.push(metricsSection(comparison));
  const totals = comparison.metrics
    .filter((m) => m.aggregate === 'sum')
    .flatMap((m) =>
      m.deltas.map((d, i) => {
        const p = d.paired;
        const stats = p
          ? ` (${signedValue(m, p.mean_difference)}, 95% CI ${differenceInterval(m, p.ci95)}, p ${formatPValue(p.p_value)})`
          : '';
        const shared = comparison.pairs[i]?.shared_tasks ?? 0;
        return `<li>${escapeHtml(`${m.name}, ${labels[i + 1] ?? ''} vs ${labels[0] ?? ''} over ${shared} shared tasks: ${metricNumber(m, d.baseline_value)} → ${metricNumber(m, d.value)}${stats}`)}</li>`;
      }),
    );
  if (totals.length > 0)
    sections.push({ id: 'totals', title: 'Totals', html: `<ul>${totals.join('')}</ul>` });
  const sequential = comparison.metrics.flatMap((m) =>
    m.deltas.flatMap((d) => {
      const line = sequentialLine(m, d);
      return line ? [`<li>${escapeHtml(line)}</li>`] : [];
    }),
  );
  if (sequential.length > 0) {
    sections.push({
      id: 'sequential',
      title: 'Sequential verdict (always-valid confidence sequence)',
      html: `<ul>${sequential.join('')}</ul>`,
    });
  }
  for (const [i, pair] of comparison.pairs.entries()) {
    const flips =
      flippedRows(pair.regressions, 'pass → fail') + flippedRows(pair.improvements, 'fail → pass');
    const flaky =
      pair.flaky.length === 0
        ? ''
        : `<h3>Flaky tasks (${pair.flaky.length})</h3><ul>${pair.flaky.map((t) => `<li>${escapeHtml(flakyLine(t))}</li>`).join('')}</ul>`;
    if (flips === '' && flaky === '') continue;
    sections.push({
      id: `flipped-${i}`,
      title: `Flipped tasks: ${labels[i + 1] ?? pair.experiment_id} vs ${labels[0] ?? pair.baseline_id}`,
      html:
        (flips === ''
          ? '<p class="none">No task flipped.</p>'
          : '<table data-table><thead><tr><th data-sort>Change</th><th data-sort>Task</th><th>Pass rate</th><th>Why</th></tr></thead>' +
            `<tbody>${flips}</tbody></table>`) + flaky,
    });
  }
  sections.push(...(options.sections ?? []));
  return renderPage({
    title: `Comparison: ${labels.join(' vs ')}`,
    subtitle: `Suite ${(heading?.suites ?? []).join(', ')} · α = ${comparison.alpha}`,
    sections,
    data: {
      comparison: { experiments: comparison.experiments, alpha: comparison.alpha, adjust: comparison.adjust },
    },
    ...(options.nonce ? { nonce: options.nonce } : {}),
    ...(options.served ? { served: options.served } : {}),
  });
}
