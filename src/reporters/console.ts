import type { Experiment } from '../core/experiment.ts';
import type { Outcome, RunRecord } from '../core/run-record.ts';
import { formatMetricValue, metricCells } from '../metrics/format.ts';
import { displayWidth, escapeControl, fitToWidth, truncateToWidth } from '../util/terminal-text.ts';
import { deliver } from './destination.ts';
import { FLAKY_TITLE, flakyDescription, reportFlaky } from './flaky-view.ts';
import { metricNotes } from './metric-notes.ts';
import {
  agentLatency,
  costLabel,
  countOutcomes,
  experimentVerdict,
  outcomeSummary,
  showsEpochs,
  trialExplanation,
  trialScore,
  type Verdict,
} from './record-view.ts';
import type { ReporterV1, ReportOptions } from './types.ts';

const DEFAULT_WIDTH = 100;
/** Above this many trials the terminal gets the failures, the errors and the summary. */
export const CONSOLE_ROW_LIMIT = 200;
/** At most this many failed or errored rows above the limit; the rest are counted. */
const PROBLEM_ROWS = 100;
/** Below this the table cannot hold its fixed columns; lines are still cut to the width. */
const MIN_WIDTH = 40;

type Style = (s: string) => string;
interface Styles {
  readonly red: Style;
  readonly green: Style;
  readonly yellow: Style;
  readonly dim: Style;
  readonly bold: Style;
}

const plain: Style = (s) => s;
const sgr =
  (open: number, close: number): Style =>
  (s) =>
    `\u001b[${open}m${s}\u001b[${close}m`;

/** Colour is injected (the CLI decides from TTY and NO_COLOR); a reporter never guesses. */
function styles(color: boolean): Styles {
  if (!color) return { red: plain, green: plain, yellow: plain, dim: plain, bold: plain };
  return { red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}

const OUTCOME_LABEL: Record<Outcome, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  error: 'ERROR',
  pending: 'PENDING',
};

function outcomeStyle(s: Styles, outcome: Outcome | Verdict): Style {
  switch (outcome) {
    case 'pass':
    case 'PASS':
      return s.green;
    case 'fail':
    case 'error':
    case 'FAIL':
    case 'ERROR':
      return s.red;
    default:
      return s.yellow;
  }
}

interface Column {
  readonly title: string;
  readonly align: 'left' | 'right';
  readonly cell: (r: RunRecord) => string;
  /** Most columns a value may take before it is cut. */
  readonly cap: number;
}

function columns(withEpoch: boolean): Column[] {
  const all: Array<Column | false> = [
    { title: 'TASK', align: 'left', cell: (r) => escapeControl(r.task_id), cap: 32 },
    withEpoch && { title: 'EPOCH', align: 'right', cell: (r) => String(r.epoch), cap: 6 },
    { title: 'OUTCOME', align: 'left', cell: (r) => OUTCOME_LABEL[r.outcome], cap: 7 },
    { title: 'SCORE', align: 'right', cell: (r) => fixed(trialScore(r), 2), cap: 6 },
    { title: 'AGENT LATENCY', align: 'right', cell: (r) => seconds(agentLatency(r)), cap: 13 },
    { title: 'COST', align: 'right', cell: (r) => costLabel(r, dollars), cap: 18 },
  ];
  return all.filter((c): c is Column => c !== false);
}

function fixed(value: number | null, digits: number): string {
  return value === null ? '-' : value.toFixed(digits);
}

function seconds(value: number | null): string {
  return value === null ? '-' : formatMetricValue(value, 'seconds');
}

function dollars(value: number): string {
  return formatMetricValue(value, 'usd');
}

interface Segment {
  readonly text: string;
  readonly style: Style;
}

/**
 * Cuts a styled line to the width before styling, so that escape codes never count as columns
 * and a cut never lands inside one.
 */
function renderLine(segments: readonly Segment[], width: number): string {
  let used = 0;
  let out = '';
  for (const { text, style } of segments) {
    const room = width - used;
    if (room <= 0) break;
    const cut = truncateToWidth(text, room);
    if (cut !== '') out += style(cut);
    used += displayWidth(cut);
  }
  return out;
}

function resultsTable(
  experiment: Experiment,
  shown: readonly RunRecord[],
  width: number,
  s: Styles,
): string[] {
  const cols = columns(showsEpochs(experiment));
  const rows = shown.map((r) => cols.map((c) => c.cell(r)));
  // A reduce, not Math.max(...rows): a spread of 100k arguments overflows the stack.
  const widths = cols.map((c, i) =>
    rows.reduce((w, row) => Math.min(c.cap, Math.max(w, displayWidth(row[i] ?? ''))), displayWidth(c.title)),
  );
  const gap = '  ';
  // On a narrow terminal the task column gives way first, down to 8 columns.
  const others = widths.slice(1).reduce((a, b) => a + b, 0) + gap.length * cols.length;
  widths[0] = Math.max(8, Math.min(widths[0] ?? 8, width - others - 10));
  const header = [...cols.map((c, i) => fitToWidth(c.title, widths[i] ?? 0, c.align)), 'DETAILS'].join(gap);
  const lines = [renderLine([{ text: header, style: s.bold }], width)];
  shown.forEach((record, index) => {
    const row = rows[index] ?? [];
    const segments: Segment[] = [];
    cols.forEach((c, i) => {
      const text = fitToWidth(row[i] ?? '', widths[i] ?? 0, c.align);
      segments.push({ text, style: c.title === 'OUTCOME' ? outcomeStyle(s, record.outcome) : plain });
      segments.push({ text: gap, style: plain });
    });
    const why = trialExplanation(record);
    if (why !== undefined) segments.push({ text: escapeControl(why), style: s.dim });
    lines.push(renderLine(segments, width).trimEnd());
  });
  return lines;
}

function metricsBlock(experiment: Experiment, width: number): string[] {
  if (experiment.metrics.length === 0) return [];
  const rows = experiment.metrics.map((m) => {
    const c = metricCells(m);
    return { cells: [escapeControl(c.name), c.value, c.margin, c.interval, c.n], notes: metricNotes(m) };
  });
  const widths = [0, 1, 2, 3].map((i) =>
    rows.reduce((w, r) => Math.min(40, Math.max(w, displayWidth(r.cells[i] ?? ''))), 0),
  );
  return [
    '',
    'Metrics',
    ...rows.flatMap(({ cells, notes }) => {
      const line = cells
        .map((cell, i) => (i < 4 ? fitToWidth(cell, widths[i] ?? 0, i === 0 ? 'left' : 'right') : cell))
        .join('  ');
      const whole = [line, ...notes].join('  ').trimEnd();
      // A note says what a figure depends on: it goes on the next line rather than being cut.
      if (displayWidth(whole) <= width || notes.length === 0) return [truncateToWidth(whole, width)];
      return [
        truncateToWidth(line.trimEnd(), width),
        ...notes.map((note) => truncateToWidth(`    ${note}`, width)),
      ];
    }),
  ];
}

function flakyBlock(experiment: Experiment, options: ReportOptions, width: number, s: Styles): string[] {
  const flaky = reportFlaky(experiment, options);
  if (flaky.length === 0) return [];
  return [
    '',
    s.bold(`${FLAKY_TITLE}: ${flaky.length}`),
    ...flaky.map((t) => truncateToWidth(`~ ${escapeControl(flakyDescription(t))}`, width)),
  ];
}

function violationsBlock(experiment: Experiment, width: number, s: Styles): string[] {
  if (experiment.violations.length === 0) return [];
  return [
    '',
    s.bold('Threshold violations'),
    ...experiment.violations.map((v) => s.red(truncateToWidth(`✗ ${escapeControl(v.message)}`, width))),
  ];
}

function verdictLine(experiment: Experiment, width: number, s: Styles): string {
  const verdict = experimentVerdict(experiment);
  const violations = experiment.violations.length;
  const gates =
    violations === 0
      ? experiment.status === 'completed'
        ? 'all thresholds met'
        : `run ${experiment.status}`
      : `${violations} threshold ${violations === 1 ? 'violation' : 'violations'}`;
  const text = `${verdict}  ${outcomeSummary(countOutcomes(experiment))}; ${gates}`;
  return outcomeStyle(s, verdict)(s.bold(truncateToWidth(text, width)));
}

/**
 * The rows of a long run on a terminal: those that failed or errored (the first
 * `PROBLEM_ROWS`), then a line that says what was left out and how to see it.
 */
function resultsBlock(experiment: Experiment, options: ReportOptions, width: number, s: Styles): string[] {
  const { records } = experiment;
  if (records.length === 0) return ['No trials recorded.'];
  const everyRow = options.allRows === true || options.destination !== undefined;
  if (everyRow || records.length <= CONSOLE_ROW_LIMIT) return resultsTable(experiment, records, width, s);
  const problems = records.filter((r) => r.outcome === 'fail' || r.outcome === 'error');
  const shown = problems.slice(0, PROBLEM_ROWS);
  const others = records.length - shown.length;
  const more = problems.length - shown.length;
  const note = `${others} of ${records.length} trials not shown${more > 0 ? ` (${more} of them failed or errored)` : ''}: --all shows every row`;
  return [
    ...(shown.length === 0 ? ['No trial failed or errored.'] : resultsTable(experiment, shown, width, s)),
    s.dim(truncateToWidth(note, width)),
  ];
}

/** Renders the experiment for a terminal: results, metrics with intervals, violations, verdict. */
export function renderConsole(experiment: Experiment, options: ReportOptions = {}): string {
  const width = Math.max(MIN_WIDTH, options.width ?? DEFAULT_WIDTH);
  const s = styles(options.color === true);
  const title = `${escapeControl(experiment.suite.name ?? experiment.suite.id)} × ${escapeControl(
    `${experiment.harness.name}@${experiment.harness.version}`,
  )}  (${escapeControl(experiment.id)})`;
  const lines = [
    s.bold(truncateToWidth(title, width)),
    '',
    ...resultsBlock(experiment, options, width, s),
    ...metricsBlock(experiment, width),
    ...flakyBlock(experiment, options, width, s),
    ...violationsBlock(experiment, width, s),
    '',
    verdictLine(experiment, width, s),
  ];
  return `${lines.join('\n')}\n`;
}

/** The terminal reporter (also selected by `-o FILE.txt`, where it writes without colour). */
export function createConsoleReporter(): ReporterV1 {
  return {
    specificationVersion: 'v1',
    name: 'console',
    extensions: ['.txt'],
    async report(experiment, options) {
      // A file never gets escape codes, whatever the caller asked for the terminal.
      const color = options?.destination === undefined && options?.color === true;
      return deliver(renderConsole(experiment, { ...options, color }), options);
    },
  };
}
