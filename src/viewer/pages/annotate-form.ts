import type { Annotation } from '../../core/annotation.ts';
import { ANNOTATION_LABEL_MAX, ANNOTATION_NOTE_MAX } from '../../core/annotation.ts';
import type { RunRecord } from '../../core/run-record.ts';
import { escapeHtml } from '../../reporters/html/index.ts';
import type { PageSection } from '../../reporters/html/page.ts';
import { annotationsSection } from '../../reporters/html/sections/annotations.ts';
import { links } from '../routes.ts';

/**
 * The experiment page's annotations: the stored ones (the report's table) and, for a browser that
 * holds the token, a form to add a label and a note to any trial of this page.
 */
export function annotationsPageSection(options: {
  readonly experimentId: string;
  readonly annotations: readonly Annotation[];
  readonly records: readonly RunRecord[];
  readonly trials: readonly RunRecord[];
  readonly token: string | undefined;
  readonly chosen: string;
}): PageSection {
  const table = annotationsSection(options.annotations, options.records);
  if (options.token === undefined || options.trials.length === 0)
    return {
      id: 'annotations',
      title: 'Annotations',
      html: `${table}<p class="note">Open the URL <code>harnesseval view</code> printed to add annotations.</p>`,
    };
  const choices = options.trials
    .map(
      (r) =>
        `<option value="${escapeHtml(r.run_id)}"${r.run_id === options.chosen ? ' selected' : ''}>` +
        `${escapeHtml(`${r.task_id} (epoch ${r.epoch}) — ${r.outcome}`)}</option>`,
    )
    .join('');
  const form =
    `<form method="post" action="${escapeHtml(links.annotations(options.experimentId))}" data-annotate>` +
    `<input type="hidden" name="token" value="${escapeHtml(options.token)}">` +
    `<p><label>trial <select name="run_id" required>${choices}</select></label> ` +
    `<label>label <input name="label" maxlength="${ANNOTATION_LABEL_MAX}" placeholder="e.g. flaky-env"></label> ` +
    '<label>by <input name="author" required autocomplete="name"></label></p>' +
    `<p><label>note<br><textarea name="note" rows="3" cols="80" maxlength="${ANNOTATION_NOTE_MAX}"></textarea></label></p>` +
    '<p><button type="submit">Save annotation</button> <span class="note">(a label, a note or both)</span></p></form>';
  return { id: 'annotations', title: 'Annotations', html: table + form };
}
