import type { Annotation } from '../core/annotation.ts';
import type { Experiment } from '../core/experiment.ts';
import { overallScore, recordErrorKind } from '../core/overall-score.ts';
import { formatInterval, metricCells } from '../metrics/format.ts';
import { metricNotes } from './metric-notes.ts';
import type { Paint } from './paint.ts';
import { overallScoreText } from './record-view.ts';

/**
 * Text for `runs list` and `runs show`. Stored values may come from an imported file, so control
 * characters are replaced before they reach the terminal (no escape-sequence injection).
 */
export function safe(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '),
    )
    .join('\n');
}

function when(iso: string | undefined): string {
  if (iso === undefined) return '-';
  return safe(iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ''));
}

export function colourStatus(status: string, paint: Paint): string {
  if (status === 'completed') return paint.green(status);
  if (status === 'failed') return paint.red(status);
  if (status === 'interrupted') return paint.yellow(status);
  return status;
}

/** What a row of `runs list` shows of a stored experiment (the store's summary has it). */
export interface ListedExperiment {
  readonly id: string;
  readonly created_at: string;
  readonly harness_name: string;
  readonly harness_version: string;
  readonly suite_id: string;
  readonly status: string;
  readonly records: number;
  readonly outcome?: string | undefined;
}

export function renderList(list: readonly ListedExperiment[]): string {
  const header = ['ID', 'CREATED', 'HARNESS', 'SUITE', 'STATUS', 'RECORDS', 'OUTCOME'];
  const rows = list.map((s) => [
    safe(s.id),
    when(s.created_at),
    safe(`${s.harness_name}@${s.harness_version}`),
    safe(s.suite_id),
    s.status,
    String(s.records),
    s.outcome ?? '-',
  ]);
  return table([header, ...rows]);
}

export type OutcomeCounts = Record<Experiment['records'][number]['outcome'], number>;

/** The machine-readable summary `runs show --format json` prints. */
export function summarize(experiment: Experiment) {
  const outcomes: OutcomeCounts = { pass: 0, fail: 0, error: 0, pending: 0 };
  for (const record of experiment.records) outcomes[record.outcome] += 1;
  return {
    id: experiment.id,
    name: experiment.name,
    harness: {
      name: experiment.harness.name,
      version: experiment.harness.version,
      adapter: experiment.harness.adapter,
    },
    suite: { id: experiment.suite.id, file: experiment.suite.file, tasks: experiment.suite.tasks.length },
    status: experiment.status,
    outcome: experiment.outcome,
    created_at: experiment.created_at,
    finished_at: experiment.finished_at,
    epochs: experiment.settings.epochs,
    records: experiment.records.length,
    outcomes,
    metrics: experiment.metrics.map((m) => ({
      name: m.name,
      value: m.value,
      formatted_value: m.formatted_value,
      ci95: m.ci95,
      n: m.n,
    })),
    scores: experiment.scores,
    overall: overallSummary(experiment),
    violations: experiment.violations.map((v) => v.message),
  };
}

/** The overall score by its one definition, recomputed from the records, with its counts. */
function overallSummary(experiment: Experiment) {
  const tasks =
    experiment.suite.tasks.length > 0
      ? experiment.suite.tasks
      : [...new Set(experiment.records.map((r) => r.task_id))].map((id) => ({ id, weight: 1 }));
  const score = overallScore(experiment.records, tasks);
  return {
    value: score.value,
    decided: score.decided,
    pending: score.pending,
    environment_errors: score.environment_errors,
    infra_errors: score.infra_errors,
    possible_range: score.possible_range,
  };
}

/** " (1 infra, 2 timeout; ...)": errors by kind when some are left out of rates, so they read as such. */
function errorKinds(experiment: Experiment): string {
  const kinds = new Map<string, number>();
  for (const record of experiment.records) {
    if (record.outcome !== 'error') continue;
    const kind = recordErrorKind(record) ?? 'unknown';
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  // Only when some errors are left out of the rates: then the reader needs to see which.
  const excluded = (kinds.get('infra') ?? 0) + (kinds.get('environment') ?? 0) > 0;
  if (!excluded) return '';
  const parts = [...kinds].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${n} ${k}`);
  return ` (${parts.join(', ')}; infra and environment errors are left out of rates)`;
}

/** "harbor jobs/2026-12-01 (2 fields not mapped: ...)" for an experiment `runs import --from` made. */
function importedFrom(experiment: Experiment): string | undefined {
  const info = experiment.metadata['import'];
  if (typeof info !== 'object' || info === null) return undefined;
  const { tool, source, unmapped } = info as Record<string, unknown>;
  if (typeof tool !== 'string' || typeof source !== 'string') return undefined;
  const fields = Array.isArray(unmapped) ? unmapped.length : 0;
  return `${tool} ${source}${fields > 0 ? ` (${fields} field(s) not mapped, kept in record metadata or listed at import)` : ''}`;
}

export function renderShow(
  experiment: Experiment,
  paint: Paint,
  annotations: readonly Annotation[] = [],
): string {
  const s = summarize(experiment);
  const lines: string[] = [];
  const field = (label: string, value: string) => lines.push(`${paint.bold(label.padEnd(11))}${value}`);
  field('Experiment', safe(s.name === undefined ? s.id : `${s.id} (${s.name})`));
  const model = experiment.harness.model === undefined ? '' : `, model ${experiment.harness.model}`;
  field('Harness', safe(`${s.harness.name} ${s.harness.version} (adapter ${s.harness.adapter}${model})`));
  field('Suite', safe(s.suite.file === undefined ? s.suite.id : `${s.suite.id} (${s.suite.file})`));
  const outcome = s.outcome === undefined ? '' : `, outcome ${s.outcome}`;
  field('Status', `${colourStatus(s.status, paint)}${outcome}`);
  const source = importedFrom(experiment);
  if (source !== undefined) field('Imported', safe(source));
  field('Created', when(s.created_at));
  field('Finished', when(s.finished_at));
  const planned = s.suite.tasks * s.epochs;
  const counts = `${s.outcomes.pass} pass, ${s.outcomes.fail} fail, ${s.outcomes.error} error${errorKinds(experiment)}, ${s.outcomes.pending} pending`;
  field('Trials', `${s.records} of ${planned} (${s.suite.tasks} tasks x ${s.epochs} epochs): ${counts}`);
  if (experiment.metrics.length > 0) {
    lines.push(paint.bold('Metrics'));
    const rows = experiment.metrics.map((m) => [
      `  ${safe(m.name)}`,
      safe(metricCells(m).value),
      m.ci95 === null ? '' : `95% CI ${formatInterval(m, m.ci95)}`,
      [`n=${m.n}`, ...metricNotes(m)].join('  '),
    ]);
    lines.push(table(rows));
  }
  lines.push(paint.bold('Scores'));
  const others = Object.entries(experiment.scores).filter(([name]) => name !== 'overall');
  lines.push(
    table([
      ['  overall', overallScoreText(experiment)],
      ...others.map(([name, value]) => [`  ${safe(name)}`, value.toFixed(3)]),
    ]),
  );
  if (experiment.violations.length > 0) {
    lines.push(paint.bold('Threshold violations'));
    for (const v of experiment.violations) lines.push(`  ${paint.red('x')} ${safe(v.message)}`);
  }
  if (annotations.length > 0)
    lines.push(paint.bold('Annotations'), ...annotationLines(experiment, annotations));
  return lines.join('\n');
}

/** One line per annotation, oldest first: the trial, the label, who and when, then the note on one line. */
function annotationLines(experiment: Experiment, annotations: readonly Annotation[]): string[] {
  const records = new Map(experiment.records.map((r) => [r.run_id, r]));
  return annotations.map((a) => {
    const record = records.get(a.run_id);
    const trial = record === undefined ? a.run_id : `${record.task_id}#${record.epoch}`;
    const label = a.label === '' ? '' : ` [${a.label}]`;
    const note = a.note === '' ? '' : `: ${a.note.replace(/\s+/g, ' ').slice(0, 300)}`;
    return `  ${safe(`${trial}${label} by ${a.author}, ${when(a.created_at)}${note}`)}`;
  });
}
