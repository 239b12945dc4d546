import type { Experiment } from '../core/experiment.ts';
import { recordErrorKind } from '../core/overall-score.ts';
import type { RunRecord } from '../core/run-record.ts';
import { deliver } from './destination.ts';
import { agentLatency, trialCost, trialError, trialScore, unpricedCalls } from './record-view.ts';
import type { RecordPages, ReporterV1, ReportWriter } from './types.ts';

/**
 * One row per trial. Times are named apart: `agent_latency_seconds` is what the adapter measured
 * around the agent call, `trial_duration_seconds` the trial's wall clock with its checks.
 * `cost_status` is `complete`, `partial` (some calls unpriced) or `unknown` (empty cost).
 */
export const CSV_HEADER = [
  'test_id',
  'epoch',
  'status',
  'error_kind',
  'agent_latency_seconds',
  'trial_duration_seconds',
  'cost_usd',
  'cost_status',
  'score',
  'evaluator_scores',
  'error',
] as const;

/**
 * Spreadsheets run a cell that starts with `=`, `+`, `-` or `@` as a formula (and TAB or CR
 * can smuggle one past a trim), so agent output like `=HYPERLINK(...)` would execute when the
 * CSV is opened. Such text cells get a leading `'`, which spreadsheets read as "this is text"
 * (OWASP "CSV injection"). Numbers we format ourselves are never prefixed.
 */
export function neutralizeFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** RFC 4180: a field holding a comma, quote, CR or LF is quoted, and its quotes doubled. */
export function csvField(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

function row(record: RunRecord): string[] {
  const score = trialScore(record);
  const evaluatorScores = record.evaluations
    .map((e) => `${e.negated ? 'not ' : ''}${e.evaluator}:${e.score.toFixed(2)}`)
    .join('; ');
  const latency = agentLatency(record);
  const cost = trialCost(record);
  return [
    neutralizeFormula(record.task_id),
    String(record.epoch),
    record.outcome,
    record.outcome === 'error' ? (recordErrorKind(record) ?? '') : '',
    latency === null ? '' : latency.toFixed(4),
    record.duration_seconds.toFixed(4),
    cost === null ? '' : String(cost),
    cost === null ? 'unknown' : unpricedCalls(record) > 0 ? 'partial' : 'complete',
    score === null ? '' : score.toFixed(4),
    neutralizeFormula(evaluatorScores),
    neutralizeFormula(trialError(record) ?? ''),
  ];
}

/** One row per trial, CRLF line ends as RFC 4180 asks. */
export function renderCsv(experiment: Experiment): string {
  const lines = [[...CSV_HEADER], ...experiment.records.map(row)];
  return lines.map(csvLine).join('');
}

function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/** `renderCsv` of the experiment with its records, a row per record as its page arrives. */
export async function streamCsv(pages: RecordPages, write: ReportWriter): Promise<void> {
  await write(csvLine(CSV_HEADER));
  for await (const record of pages.records()) await write(csvLine(row(record)));
}

export function createCsvReporter(): ReporterV1 {
  return {
    specificationVersion: 'v1',
    name: 'csv',
    extensions: ['.csv'],
    async report(experiment, options) {
      return deliver(renderCsv(experiment), options);
    },
    streamReport: (_experiment, pages, write) => streamCsv(pages, write),
  };
}
