import type { Annotation } from '../../core/annotation.ts';
import { ANNOTATION_LABEL_MAX, ANNOTATION_NOTE_MAX } from '../../core/annotation.ts';
import type { RunRecord } from '../../core/run-record.ts';
import { escapeHtml } from '../../reporters/html/index.ts';
import type { PageSection } from '../../reporters/html/page.ts';
import type { AnnotatedTrial } from '../../reporters/html/sections/annotations.ts';
import { annotationsSection } from '../../reporters/html/sections/annotations.ts';
import { links } from '../routes.ts';

/** One annotation's edit form (its text, prefilled) and delete button, for a browser with the token. */
function editForms(experimentId: string, annotation: Annotation, token: string): string {
  const hidden = `<input type="hidden" name="token" value="${escapeHtml(token)}">`;
  return (
    `<details data-annotation-edit="${annotation.id}"><summary>Edit or delete annotation ${annotation.id}</summary>` +
    `<form method="post" action="${escapeHtml(links.annotation(experimentId, annotation.id))}" data-edit>${hidden}` +
    `<p><label>label <input name="label" maxlength="${ANNOTATION_LABEL_MAX}" value="${escapeHtml(annotation.label)}"></label> ` +
    `<label>by <input name="author" required value="${escapeHtml(annotation.author)}"></label></p>` +
    `<p><label>note<br><textarea name="note" rows="3" cols="80" maxlength="${ANNOTATION_NOTE_MAX}">${escapeHtml(annotation.note)}</textarea></label></p>` +
    '<p><button type="submit">Save changes</button></p></form>' +
    `<form method="post" action="${escapeHtml(links.annotation(experimentId, annotation.id, 'delete'))}" data-delete>${hidden}` +
    '<p><button type="submit">Delete this annotation</button></p></form></details>'
  );
}

/**
 * The experiment page's annotations: the stored ones (the report's table) and, for a browser that
 * holds the token, a form to add a label and a note to any trial of this page and, for each
 * stored one, forms to edit or delete it.
 */
export function annotationsPageSection(options: {
  readonly experimentId: string;
  readonly annotations: readonly Annotation[];
  readonly records: readonly AnnotatedTrial[];
  readonly trials: readonly (AnnotatedTrial & Pick<RunRecord, 'outcome'>)[];
  readonly token: string | undefined;
  readonly chosen: string;
}): PageSection {
  const downloads =
    options.annotations.length === 0
      ? ''
      : `<p>Download the annotations: <a href="${escapeHtml(links.annotationsExport(options.experimentId, 'csv'))}">CSV</a> · ` +
        `<a href="${escapeHtml(links.annotationsExport(options.experimentId, 'jsonl'))}">JSONL</a></p>`;
  const table = annotationsSection(options.annotations, options.records) + downloads;
  const { token } = options;
  if (token === undefined)
    return {
      id: 'annotations',
      title: 'Annotations',
      html: `${table}<p class="note">Open the URL <code>harnesseval view</code> printed to add, edit or delete annotations.</p>`,
    };
  const edits = options.annotations.map((a) => editForms(options.experimentId, a, token)).join('');
  if (options.trials.length === 0) return { id: 'annotations', title: 'Annotations', html: table + edits };
  const choices = options.trials
    .map(
      (r) =>
        `<option value="${escapeHtml(r.run_id)}"${r.run_id === options.chosen ? ' selected' : ''}>` +
        `${escapeHtml(`${r.task_id} (epoch ${r.epoch}) — ${r.outcome}`)}</option>`,
    )
    .join('');
  const form =
    `<form method="post" action="${escapeHtml(links.annotations(options.experimentId))}" data-annotate>` +
    `<input type="hidden" name="token" value="${escapeHtml(token)}">` +
    `<p><label>trial <select name="run_id" required>${choices}</select></label> ` +
    `<label>label <input name="label" maxlength="${ANNOTATION_LABEL_MAX}" placeholder="e.g. flaky-env"></label> ` +
    '<label>by <input name="author" required autocomplete="name"></label></p>' +
    `<p><label>note<br><textarea name="note" rows="3" cols="80" maxlength="${ANNOTATION_NOTE_MAX}"></textarea></label></p>` +
    '<p><button type="submit">Save annotation</button> <span class="note">(a label, a note or both)</span></p></form>';
  return { id: 'annotations', title: 'Annotations', html: table + edits + form };
}
