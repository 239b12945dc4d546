import type { Experiment } from '../core/experiment.ts';
import type { Outcome, RunRecord } from '../core/run-record.ts';
import type { FlakyTask } from '../metrics/flaky.ts';
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
  type OutcomeCounts,
  outcomeSummary,
  showsEpochs,
  trialExplanation,
  trialScore,
  type Verdict,
} from './record-view.ts';
import { collect, foldRun } from './run-fold.ts';
import type { RecordPages, ReporterV1, ReportOptions, ReportWriter } from './types.ts';

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

/** Column widths grown row by row (a reduce, not Math.max(...rows): 100k arguments overflow the stack). */
class TableLayout {
  readonly cols: Column[];
  readonly widths: number[];

  constructor(withEpoch: boolean) {
    this.cols = columns(withEpoch);
    this.widths = this.cols.map((c) => displayWidth(c.title));
  }

  cells(record: RunRecord): string[] {
    return this.cols.map((c) => c.cell(record));
  }

  widen(cells: readonly string[]): void {
    this.cols.forEach((c, i) => {
      this.widths[i] = Math.min(c.cap, Math.max(this.widths[i] ?? 0, displayWidth(cells[i] ?? '')));
    });
  }

  /** The header line, once every row has widened the columns; on a narrow terminal the task column gives way first, down to 8. */
  header(width: number, s: Styles): string {
    const { cols, widths } = this;
    const others = widths.slice(1).reduce((a, b) => a + b, 0) + GAP.length * cols.length;
    widths[0] = Math.max(8, Math.min(widths[0] ?? 8, width - others - 10));
    const header = [...cols.map((c, i) => fitToWidth(c.title, widths[i] ?? 0, c.align)), 'DETAILS'].join(GAP);
    return renderLine([{ text: header, style: s.bold }], width);
  }

  line(record: RunRecord, row: readonly string[], width: number, s: Styles): string {
    const segments: Segment[] = [];
    this.cols.forEach((c, i) => {
      const text = fitToWidth(row[i] ?? '', this.widths[i] ?? 0, c.align);
      segments.push({ text, style: c.title === 'OUTCOME' ? outcomeStyle(s, record.outcome) : plain });
      segments.push({ text: GAP, style: plain });
    });
    const why = trialExplanation(record);
    if (why !== undefined) segments.push({ text: escapeControl(why), style: s.dim });
    return renderLine(segments, width).trimEnd();
  }
}

const GAP = '  ';

function resultsTable(withEpoch: boolean, shown: readonly RunRecord[], width: number, s: Styles): string[] {
  const layout = new TableLayout(withEpoch);
  const rows = shown.map((r) => layout.cells(r));
  for (const row of rows) layout.widen(row);
  return [layout.header(width, s), ...shown.map((r, i) => layout.line(r, rows[i] ?? [], width, s))];
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

function flakyBlock(flaky: readonly FlakyTask[], width: number, s: Styles): string[] {
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

function verdictLine(experiment: Experiment, counts: OutcomeCounts, width: number, s: Styles): string {
  const verdict = experimentVerdict(experiment);
  const violations = experiment.violations.length;
  const gates =
    violations === 0
      ? experiment.status === 'completed'
        ? 'all thresholds met'
        : `run ${experiment.status}`
      : `${violations} threshold ${violations === 1 ? 'violation' : 'violations'}`;
  const text = `${verdict}  ${outcomeSummary(counts)}; ${gates}`;
  return outcomeStyle(s, verdict)(s.bold(truncateToWidth(text, width)));
}

/** Whether the results show every row: asked for, written to a file, or few enough. */
function everyRow(options: ReportOptions, trials: number): boolean {
  return options.allRows === true || options.destination !== undefined || trials <= CONSOLE_ROW_LIMIT;
}

/**
 * The rows of a long run on a terminal: those that failed or errored (the first
 * `PROBLEM_ROWS`), then a line that says what was left out and how to see it.
 */
function problemsBlock(
  shown: readonly RunRecord[],
  problems: number,
  trials: number,
  withEpoch: boolean,
  width: number,
  s: Styles,
): string[] {
  const others = trials - shown.length;
  const more = problems - shown.length;
  const note = `${others} of ${trials} trials not shown${more > 0 ? ` (${more} of them failed or errored)` : ''}: --all shows every row`;
  return [
    ...(shown.length === 0 ? ['No trial failed or errored.'] : resultsTable(withEpoch, shown, width, s)),
    s.dim(truncateToWidth(note, width)),
  ];
}

function resultsBlock(experiment: Experiment, options: ReportOptions, width: number, s: Styles): string[] {
  const { records } = experiment;
  const withEpoch = showsEpochs(experiment);
  if (records.length === 0) return ['No trials recorded.'];
  if (everyRow(options, records.length)) return resultsTable(withEpoch, records, width, s);
  const problems = records.filter((r) => r.outcome === 'fail' || r.outcome === 'error');
  return problemsBlock(problems.slice(0, PROBLEM_ROWS), problems.length, records.length, withEpoch, width, s);
}

function titleLine(experiment: Experiment, width: number, s: Styles): string {
  const title = `${escapeControl(experiment.suite.name ?? experiment.suite.id)} × ${escapeControl(
    `${experiment.harness.name}@${experiment.harness.version}`,
  )}  (${escapeControl(experiment.id)})`;
  return s.bold(truncateToWidth(title, width));
}

function closingLines(
  experiment: Experiment,
  fold: { readonly counts: OutcomeCounts; readonly flaky: readonly FlakyTask[] },
  width: number,
  s: Styles,
): string[] {
  return [
    ...metricsBlock(experiment, width),
    ...flakyBlock(fold.flaky, width, s),
    ...violationsBlock(experiment, width, s),
    '',
    verdictLine(experiment, fold.counts, width, s),
  ];
}

/** Renders the experiment for a terminal: results, metrics with intervals, violations, verdict. */
export function renderConsole(experiment: Experiment, options: ReportOptions = {}): string {
  const width = Math.max(MIN_WIDTH, options.width ?? DEFAULT_WIDTH);
  const s = styles(options.color === true);
  const fold = { counts: countOutcomes(experiment), flaky: reportFlaky(experiment, options) };
  const lines = [
    titleLine(experiment, width, s),
    '',
    ...resultsBlock(experiment, options, width, s),
    ...closingLines(experiment, fold, width, s),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * `renderConsole` of the experiment with its records, read from `pages`: a fold, then either the
 * failed and errored rows (a long run) or every row in two passes (widths, then lines).
 */
export async function streamConsole(
  experiment: Experiment,
  pages: RecordPages,
  write: ReportWriter,
  options: ReportOptions = {},
): Promise<void> {
  const width = Math.max(MIN_WIDTH, options.width ?? DEFAULT_WIDTH);
  const s = styles(options.color === true);
  const fold = await foldRun(experiment, pages, options.flaky === undefined ? {} : { flaky: options.flaky });
  const trials = fold.counts.total;
  await write(`${titleLine(experiment, width, s)}\n\n`);
  if (trials === 0) await write('No trials recorded.\n');
  else if (everyRow(options, trials)) {
    const layout = new TableLayout(fold.withEpoch);
    for await (const record of pages.records()) layout.widen(layout.cells(record));
    await write(`${layout.header(width, s)}\n`);
    for await (const record of pages.records())
      await write(`${layout.line(record, layout.cells(record), width, s)}\n`);
  } else {
    const shown = await collect(pages.records({ outcomes: PROBLEMS, limit: PROBLEM_ROWS }));
    const problems = fold.counts.fail + fold.counts.error;
    const lines = problemsBlock(shown, problems, trials, fold.withEpoch, width, s);
    await write(`${lines.join('\n')}\n`);
  }
  await write(`${closingLines(experiment, fold, width, s).join('\n')}\n`);
}

/** The rows a long run's console shows. */
const PROBLEMS: readonly Outcome[] = ['fail', 'error'];

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
    async streamReport(experiment, pages, write, options) {
      const color = options?.destination === undefined && options?.color === true;
      await streamConsole(experiment, pages, write, { ...options, color });
    },
  };
}
