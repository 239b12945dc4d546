import type { Annotation } from '../core/annotation.ts';
import type { Experiment } from '../core/experiment.ts';
import type { Outcome, RunRecord } from '../core/run-record.ts';
import type { FlakyTask } from '../metrics/flaky.ts';
import { metricCells } from '../metrics/format.ts';
import { escapeControl } from '../util/terminal-text.ts';
import { deliver } from './destination.ts';
import { FLAKY_TITLE, flakyDescription, reportFlaky } from './flaky-view.ts';
import { metricNotes } from './metric-notes.ts';
import {
  countOutcomes,
  experimentVerdict,
  type OutcomeCounts,
  outcomeSummary,
  showsEpochs,
  trialExplanation,
  trialName,
  trialScore,
} from './record-view.ts';
import { collect, foldRun } from './run-fold.ts';
import type { RecordPages, ReporterV1, ReportOptions, ReportWriter } from './types.ts';

/** A PR comment stays readable (and under GitHub's 65,536-character limit) with at most this many failures. */
export const MAX_FAILURE_ROWS = 20;
const MAX_CELL_LENGTH = 300;

/**
 * Makes text safe inside a GFM table cell: `|` would end the cell and a newline the row; HTML
 * tags (`<script>`, `<details>`) and `<http://…>` autolinks would render; `[`/`]` would make link
 * and image syntax live (`![i](http://host/beacon.png)` in a PR comment loads the image); pairs
 * of `*` or `~` and backticks would format; control characters become visible escapes. `_` is
 * left alone: GFM never emphasises inside a word, and task ids are full of underscores.
 */
export function markdownCell(text: string, max = MAX_CELL_LENGTH): string {
  const oneLine = Array.from(escapeControl(text.replace(/\r\n|\r|\n/g, ' ')));
  // Cut by code point so that an emoji is never split into a lone surrogate.
  const cut = oneLine.length > max ? `${oneLine.slice(0, max - 1).join('')}…` : oneLine.join('');
  const escaped = cut
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('\\', '\\\\')
    .replaceAll('|', '\\|')
    .replaceAll('`', '\\`')
    .replace(/[[\]]/g, '\\$&');
  // Emphasis and strike-through need a pair of delimiters in the same cell: a lone `*` (the
  // timeline's "significant" mark) stays as it is.
  return escapePaired(escapePaired(escaped, '*'), '~');
}

function escapePaired(text: string, delimiter: '*' | '~'): string {
  return text.split(delimiter).length > 2 ? text.replaceAll(delimiter, `\\${delimiter}`) : text;
}

function table(head: readonly string[], align: readonly ('l' | 'r')[], rows: readonly string[][]): string[] {
  return [
    `| ${head.join(' | ')} |`,
    `|${align.map((a) => (a === 'r' ? '---:' : ':---')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
}

function metricsSection(experiment: Experiment): string[] {
  if (experiment.metrics.length === 0) return [];
  const rows = experiment.metrics.map((m) => {
    const c = metricCells(m);
    // The numbers are formatted here, not taken from anyone: only a cell-ending `|` could harm them.
    const ours = (cell: string) => cell.replaceAll('|', '\\|');
    const notes = markdownCell(metricNotes(m).join('; '));
    return [markdownCell(c.name), ours(c.value), ours(c.margin), ours(c.interval), String(m.n), notes];
  });
  // The notes column appears only when some figure depends on something missing.
  const withNotes = rows.some((r) => r[5] !== '');
  return [
    '',
    '### Metrics',
    '',
    ...(withNotes
      ? table(['Metric', 'Value', '± s.e.', '95% CI', 'n', 'Note'], ['l', 'r', 'r', 'l', 'r', 'l'], rows)
      : table(
          ['Metric', 'Value', '± s.e.', '95% CI', 'n'],
          ['l', 'r', 'r', 'l', 'r'],
          rows.map((r) => r.slice(0, 5)),
        )),
  ];
}

function flakySection(flaky: readonly FlakyTask[]): string[] {
  if (flaky.length === 0) return [];
  return [
    '',
    `### ${FLAKY_TITLE}`,
    '',
    ...flaky.map((t) => `- :warning: ${markdownCell(flakyDescription(t))}`),
  ];
}

function violationsSection(experiment: Experiment): string[] {
  if (experiment.violations.length === 0) return [];
  return [
    '',
    '### Threshold violations',
    '',
    ...experiment.violations.map((v) => `- :x: ${markdownCell(v.message)}`),
  ];
}

/** The outcomes the failures section lists. */
const NOT_PASSED: readonly Outcome[] = ['fail', 'error', 'pending'];

/** The first `MAX_FAILURE_ROWS` records that did not pass, and how many did not. */
function failuresSection(shown: readonly RunRecord[], failing: number, withEpoch: boolean): string[] {
  if (failing === 0) return [];
  const rows = shown.map((r) => {
    const score = trialScore(r);
    return [
      markdownCell(trialName(r, withEpoch), 80),
      r.outcome.toUpperCase(),
      score === null ? '-' : score.toFixed(2),
      markdownCell(trialExplanation(r) ?? ''),
    ];
  });
  const more = failing - rows.length;
  return [
    '',
    `### Not passed (${failing})`,
    '',
    ...table(['Task', 'Outcome', 'Score', 'Why'], ['l', 'l', 'r', 'l'], rows),
    ...(more > 0 ? ['', `_…and ${more} more (see the full report)._`] : []),
  ];
}

/** Annotation rows a report shows; the rest are counted (`annotations export` has them all). */
export const MAX_ANNOTATION_ROWS = 20;

/**
 * People's labels and notes, each beside its trial: grouped in the experiment's trial order,
 * oldest first within a trial. A person's text is escaped like agent output.
 */
function annotationsSection(
  annotations: readonly Annotation[],
  order: ReadonlyMap<string, { readonly index: number; readonly r: Pick<RunRecord, 'task_id' | 'epoch'> }>,
  trials: number,
  withEpoch: boolean,
): string[] {
  if (annotations.length === 0) return [];
  const place = (runId: string) => order.get(runId)?.index ?? trials;
  const sorted = [...annotations].sort((a, b) => place(a.run_id) - place(b.run_id));
  const rows = sorted.slice(0, MAX_ANNOTATION_ROWS).map((a) => {
    const found = order.get(a.run_id);
    const when = `${a.created_at.slice(0, 16).replace('T', ' ')}${a.updated_at === undefined ? '' : ' (edited)'}`;
    return [
      markdownCell(found === undefined ? a.run_id : trialName(found.r, withEpoch), 80),
      markdownCell(a.label, 80),
      markdownCell(a.note),
      markdownCell(a.author, 80),
      markdownCell(when),
    ];
  });
  const more = annotations.length - rows.length;
  return [
    '',
    `### Annotations (${annotations.length})`,
    '',
    ...table(['Task', 'Label', 'Note', 'By', 'When (UTC)'], ['l', 'l', 'l', 'l', 'l'], rows),
    ...(more > 0 ? ['', `_…and ${more} more (see \`harnesseval annotations export\`)._`] : []),
  ];
}

/** A summary sized for a pull-request comment: verdict, metrics with intervals, violations, failures, annotations. */
export function renderMarkdown(experiment: Experiment, options: ReportOptions = {}): string {
  const { records } = experiment;
  const failing = records.filter((r) => r.outcome !== 'pass');
  const withEpoch = showsEpochs(experiment);
  return markdownText(experiment, {
    counts: countOutcomes(experiment),
    flaky: reportFlaky(experiment, options),
    failures: failuresSection(failing.slice(0, MAX_FAILURE_ROWS), failing.length, withEpoch),
    annotations: annotationsSection(
      options.annotations ?? [],
      new Map(records.map((r, index) => [r.run_id, { r, index }])),
      records.length,
      withEpoch,
    ),
  });
}

/** `renderMarkdown` of the experiment with its records: one fold, then the rows that did not pass. */
export async function streamMarkdown(
  experiment: Experiment,
  pages: RecordPages,
  write: ReportWriter,
  options: ReportOptions = {},
): Promise<void> {
  const annotations = options.annotations ?? [];
  const fold = await foldRun(experiment, pages, {
    ...(options.flaky === undefined ? {} : { flaky: options.flaky }),
    keep: new Set(annotations.map((a) => a.run_id)),
  });
  const shown = await collect(pages.records({ outcomes: NOT_PASSED, limit: MAX_FAILURE_ROWS }));
  const failing = fold.counts.total - fold.counts.pass;
  const order = new Map([...fold.kept].map(([id, { index, glance }]) => [id, { index, r: glance }]));
  await write(
    markdownText(experiment, {
      counts: fold.counts,
      flaky: fold.flaky,
      failures: failuresSection(shown, failing, fold.withEpoch),
      annotations: annotationsSection(annotations, order, fold.counts.total, fold.withEpoch),
    }),
  );
}

function markdownText(
  experiment: Experiment,
  parts: {
    readonly counts: OutcomeCounts;
    readonly flaky: readonly FlakyTask[];
    readonly failures: readonly string[];
    readonly annotations: readonly string[];
  },
): string {
  const verdict = experimentVerdict(experiment);
  const suite = markdownCell(experiment.suite.name ?? experiment.suite.id, 120);
  const harness = markdownCell(`${experiment.harness.name}@${experiment.harness.version}`, 120);
  const lines = [
    `## HarnessEval: ${suite} × ${harness}`,
    '',
    `**${verdict}** — ${outcomeSummary(parts.counts)} · experiment ${markdownCell(experiment.id, 120)}`,
    ...metricsSection(experiment),
    ...flakySection(parts.flaky),
    ...violationsSection(experiment),
    ...parts.failures,
    ...parts.annotations,
  ];
  return `${lines.join('\n')}\n`;
}

export function createMarkdownReporter(): ReporterV1 {
  return {
    specificationVersion: 'v1',
    name: 'markdown',
    extensions: ['.md', '.markdown'],
    async report(experiment, options) {
      return deliver(renderMarkdown(experiment, options), options);
    },
    streamReport: (experiment, pages, write, options) => streamMarkdown(experiment, pages, write, options),
  };
}
