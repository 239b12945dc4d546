import type { RunRecord } from '../../../core/run-record.ts';
import { agentLatency, costLabel } from '../../record-view.ts';
import { escapeHtml, truncateText } from '../escape.ts';
import { formatScore, formatSeconds, formatUsd } from '../format.ts';
import { firstFailure, TEXT_LIMIT } from '../trial-data.ts';
import { badge } from './summary.ts';

const TABLE_ID = 'trials';
const EXPLANATION_LIMIT = 300;

interface Column {
  readonly label: string;
  readonly sort: 'number' | 'text';
  readonly numeric?: boolean;
}

const COLUMNS: readonly Column[] = [
  { label: 'task', sort: 'text' },
  { label: 'epoch', sort: 'number', numeric: true },
  { label: 'outcome', sort: 'text' },
  { label: 'score', sort: 'number', numeric: true },
  { label: 'agent latency', sort: 'number', numeric: true },
  { label: 'trial duration', sort: 'number', numeric: true },
  { label: 'cost', sort: 'number', numeric: true },
  { label: 'first failing explanation', sort: 'text' },
];

function cell(value: string | number | null, html: string, className = ''): string {
  const data = value === null ? '' : escapeHtml(String(value));
  const cls = className ? ` class="${className}"` : '';
  return `<td${cls} data-value="${data}">${html}</td>`;
}

function agentLatencyText(record: RunRecord): string {
  const seconds = agentLatency(record);
  return seconds === null ? 'n/a' : formatSeconds(seconds);
}

/** Where a served page loads a trial's trace from: its own page, and the data the panel shows. */
export interface TraceLink {
  readonly page: string;
  readonly data: string;
}

/** The task cell's opener: a button over the page's embedded data, or a link the script loads. */
function opener(record: RunRecord, index: number, link: TraceLink | undefined): string {
  const task = escapeHtml(record.task_id);
  if (link === undefined)
    return `<button type="button" class="trace" data-trial="${index}" title="show the trace">${task}</button>`;
  return `<a class="trace" href="${escapeHtml(link.page)}" data-trace-src="${escapeHtml(link.data)}" title="show the trace">${task}</a>`;
}

export function taskRow(
  record: RunRecord,
  index: number,
  flaky: ReadonlySet<string>,
  link: TraceLink | undefined,
): string {
  const score = record.scores['overall'] ?? null;
  const failure = truncateText(firstFailure(record), EXPLANATION_LIMIT);
  const explanation = failure.text + (failure.omitted > 0 ? ' …' : '');
  const search =
    `${record.task_id} ${record.outcome} ${truncateText(firstFailure(record), TEXT_LIMIT).text}`.toLowerCase();
  return (
    `<tr data-outcome="${record.outcome}" data-search="${escapeHtml(search)}" data-task="${escapeHtml(record.task_id)}">` +
    cell(
      record.task_id,
      opener(record, index, link) +
        (flaky.has(record.task_id)
          ? ' <span class="badge flaky" title="the verdict differs between attempts">flaky</span>'
          : ''),
    ) +
    cell(record.epoch, String(record.epoch), 'num') +
    cell(record.outcome, badge(record.outcome)) +
    cell(score, escapeHtml(formatScore(score)), 'num') +
    cell(agentLatency(record), escapeHtml(agentLatencyText(record)), 'num') +
    cell(record.duration_seconds, escapeHtml(formatSeconds(record.duration_seconds)), 'num') +
    cell(record.cost_usd, escapeHtml(costLabel(record, (usd) => formatUsd(usd))), 'num') +
    cell(explanation, escapeHtml(explanation), 'explanation') +
    '</tr>'
  );
}

/**
 * The per-trial table; the client script adds the filters' behaviour and sorting on header click.
 * A file report embeds every trace in its data; a served page gives `traceLink`, so each trace
 * is loaded when it is opened.
 */
export function taskTableSection(
  records: readonly RunRecord[],
  flaky: ReadonlySet<string> = new Set(),
  traceLink?: (record: RunRecord) => TraceLink,
): string {
  const frame = taskTableFrame(records.length);
  if (frame === undefined) return NO_TRIALS_HTML;
  const rows = records.map((r, i) => taskRow(r, i, flaky, traceLink?.(r))).join('\n');
  return `${frame.before}${rows}${frame.after}`;
}

/**
 * The table around its rows (`taskRow`, joined by newlines) for `trials` trials, so that a
 * streamed report writes the rows one at a time; undefined without trials (the section says so).
 */
export function taskTableFrame(trials: number): { before: string; after: string } | undefined {
  if (trials === 0) return undefined;
  const head = COLUMNS.map(
    (c) =>
      `<th data-sort="${c.sort}"${c.numeric ? ' class="num"' : ''} scope="col"><button type="button">${escapeHtml(c.label)}</button></th>`,
  ).join('');
  const filters =
    '<div class="filters">' +
    `<input type="search" placeholder="filter by task or text" aria-label="filter trials" data-filter-text="${TABLE_ID}">` +
    `<select aria-label="outcome" data-filter-outcome="${TABLE_ID}"><option value="">all outcomes</option>` +
    '<option value="pass">pass</option><option value="fail">fail</option><option value="error">error</option>' +
    '<option value="pending">pending</option></select>' +
    `<span class="count" data-filter-count="${TABLE_ID}">${trials} trials</span></div>`;
  return {
    before: `${filters}<table id="${TABLE_ID}" data-table><thead><tr>${head}</tr></thead><tbody>\n`,
    after:
      '\n</tbody></table>' +
      '<noscript><p class="note">Turn on JavaScript to filter, sort and open traces.</p></noscript>' +
      '<div id="trace-panel" hidden aria-live="polite"></div>',
  };
}

/** What the section shows without trials. */
export const NO_TRIALS_HTML = '<p class="none">No trials were recorded.</p>';
