import { HarnessEvalError } from '../../core/errors.ts';
import { type ExperimentStatus, ExperimentStatusSchema } from '../../core/experiment.ts';
import { escapeHtml, renderPage } from '../../reporters/html/index.ts';
import { badge } from '../../reporters/html/sections/summary.ts';
import type { ExperimentFilter, ExperimentSummary } from '../../store/types.ts';
import { links } from '../routes.ts';
import { type ScreenContext, SERVED } from './context.ts';
import { pageOf, pager } from './paging.ts';

export const EXPERIMENTS_PER_PAGE = 50;

function filterFrom(query: URLSearchParams): ExperimentFilter {
  const status = query.get('status') ?? '';
  if (status !== '' && !ExperimentStatusSchema.safeParse(status).success) {
    throw new HarnessEvalError(
      'usage',
      `status: expected one of ${ExperimentStatusSchema.options.join(', ')}, got "${status}"`,
    );
  }
  const suite = query.get('suite') ?? '';
  const harness = query.get('harness') ?? '';
  return {
    ...(suite === '' ? {} : { suite }),
    ...(harness === '' ? {} : { harness }),
    ...(status === '' ? {} : { status: status as ExperimentStatus }),
  };
}

function options(values: readonly string[], chosen: string | undefined, all: string): string {
  return (
    `<option value="">${escapeHtml(all)}</option>` +
    values
      .map(
        (v) => `<option value="${escapeHtml(v)}"${v === chosen ? ' selected' : ''}>${escapeHtml(v)}</option>`,
      )
      .join('')
  );
}

function filtersForm(everything: readonly ExperimentSummary[], filter: ExperimentFilter): string {
  const suites = [...new Set(everything.map((s) => s.suite_id))].sort();
  const harnesses = [...new Set(everything.map((s) => s.harness_name))].sort();
  return (
    '<form class="filters" method="get" action="/">' +
    `<select name="suite" aria-label="suite">${options(suites, filter.suite, 'all suites')}</select>` +
    `<select name="harness" aria-label="harness">${options(harnesses, filter.harness, 'all harnesses')}</select>` +
    `<select name="status" aria-label="status">${options(ExperimentStatusSchema.options, filter.status, 'any status')}</select>` +
    '<button type="submit">Filter</button></form>'
  );
}

function row(s: ExperimentSummary): string {
  return (
    `<tr data-search="${escapeHtml(`${s.id} ${s.name ?? ''} ${s.suite_id} ${s.harness_name}`.toLowerCase())}">` +
    `<td><input type="checkbox" name="id" value="${escapeHtml(s.id)}" form="compare-form" aria-label="select ${escapeHtml(s.id)}"></td>` +
    `<td><a href="${escapeHtml(links.experiment(s.id))}"><code>${escapeHtml(s.id)}</code></a>${s.name ? ` ${escapeHtml(s.name)}` : ''}</td>` +
    `<td data-value="${escapeHtml(s.suite_id)}">${escapeHtml(s.suite_id)}</td>` +
    `<td data-value="${escapeHtml(s.harness_name)}">${escapeHtml(s.harness_name)} ${escapeHtml(s.harness_version)}</td>` +
    `<td data-value="${escapeHtml(s.created_at)}">${escapeHtml(s.created_at.slice(0, 19).replace('T', ' '))}</td>` +
    `<td data-value="${escapeHtml(s.status)}">${badge(s.status)}</td>` +
    `<td class="num" data-value="${s.records}">${s.records}</td>` +
    `<td data-value="${escapeHtml(s.outcome ?? '')}">${s.outcome ? badge(s.outcome) : ''}</td>` +
    `<td><a href="${escapeHtml(links.timeline(s.harness_name, s.suite_id))}">timeline</a></td></tr>`
  );
}

/** Every stored experiment, newest first, filtered by the query string and paged. */
export async function experimentsScreen(context: ScreenContext, query: URLSearchParams): Promise<string> {
  const filter = filterFrom(query);
  const everything = await context.store.listExperiments();
  const chosen = Object.keys(filter).length === 0 ? everything : await context.store.listExperiments(filter);
  const page = pageOf(chosen, query, EXPERIMENTS_PER_PAGE);
  const head = ['', 'experiment', 'suite', 'harness', 'created', 'status', 'trials', 'outcome', '']
    .map((h, i) =>
      i === 0 || i === 8
        ? `<th>${h}</th>`
        : `<th data-sort="${i === 6 ? 'number' : 'text'}"><button type="button">${h}</button></th>`,
    )
    .join('');
  const table =
    chosen.length === 0
      ? '<p class="none">No experiments match.</p>'
      : `<table id="experiments" data-table><thead><tr>${head}</tr></thead><tbody>${page.items.map(row).join('')}</tbody></table>`;
  const compare =
    '<form id="compare-form" method="get" action="/compare">' +
    '<input type="hidden" name="order" value="oldest-first">' +
    '<button type="submit">Compare selected</button> <span class="note">(two or more; the oldest is the baseline)</span></form>';
  return renderPage({
    title: 'HarnessEval experiments',
    subtitle: `${chosen.length} of ${everything.length} experiments`,
    sections: [
      {
        id: 'experiments-list',
        title: 'Experiments',
        html: filtersForm(everything, filter) + compare + table + pager(page, query, '/'),
      },
    ],
    data: { kind: 'experiments' },
    served: SERVED,
  });
}
