import type { Annotation } from '../../../core/annotation.ts';
import type { RunRecord } from '../../../core/run-record.ts';
import { escapeHtml } from '../escape.ts';

/** What an annotation table names a trial by (a record, or a summary of one). */
export type AnnotatedTrial = Pick<RunRecord, 'run_id' | 'task_id' | 'epoch'>;

/** Annotations grouped by trial, for the trace view's data. */
export function annotationsByRun(annotations: readonly Annotation[]): Map<string, Annotation[]> {
  const byRun = new Map<string, Annotation[]>();
  for (const a of annotations) byRun.set(a.run_id, [...(byRun.get(a.run_id) ?? []), a]);
  return byRun;
}

const shownTime = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

/** What the trace view shows of one annotation (text only; the script writes it as text). */
export function annotationData(a: Annotation) {
  return { label: a.label, note: a.note, author: a.author, created_at: a.created_at };
}

/**
 * Every annotation of an experiment, oldest first, as a table: the trial, the label, the note,
 * who wrote it and when. All of it is a person's text: escaped like agent output.
 */
export function annotationsSection(
  annotations: readonly Annotation[],
  records: readonly AnnotatedTrial[],
): string {
  if (annotations.length === 0) return '<p class="none" data-annotations>No annotations yet.</p>';
  const trials = new Map(records.map((r) => [r.run_id, `${r.task_id} (epoch ${r.epoch})`]));
  const rows = annotations
    .map(
      (a) =>
        `<tr data-annotation="${a.id}"><td>${escapeHtml(trials.get(a.run_id) ?? a.run_id)}</td>` +
        `<td>${a.label === '' ? '' : `<span class="badge">${escapeHtml(a.label)}</span>`}</td>` +
        `<td style="white-space:pre-wrap">${escapeHtml(a.note)}</td><td>${escapeHtml(a.author)}</td>` +
        `<td>${escapeHtml(shownTime(a.created_at))}${a.updated_at === undefined ? '' : ` (edited ${escapeHtml(shownTime(a.updated_at))})`}</td></tr>`,
    )
    .join('');
  return (
    '<table data-annotations><thead><tr><th>trial</th><th>label</th><th>note</th><th>by</th><th>when (UTC)</th></tr></thead>' +
    `<tbody>${rows}</tbody></table>`
  );
}
