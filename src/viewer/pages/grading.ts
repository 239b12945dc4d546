import { outputText } from '../../core/agent-output.ts';
import type { RunRecord } from '../../core/run-record.ts';
import { loadExperimentSuite } from '../../plugins/file-plugins.ts';
import { escapeHtml, renderPage, truncateText } from '../../reporters/html/index.ts';
import { diffText, workspaceDiff } from '../../runner/workspace-diff.ts';
import { type PendingCriterion, pendingCriteria } from '../../scoring/grading.ts';
import type { ExperimentStore, RecordSummary } from '../../store/types.ts';
import { links } from '../routes.ts';
import { type ScreenContext, SERVED } from './context.ts';
import { experimentDocumentById } from './load.ts';

const SHOWN_TEXT = 8_000;
/** Criteria per page: each carries an output and maybe a diff. */
const CRITERIA_SHOWN = 20;

function preText(text: string): string {
  const cut = truncateText(text, SHOWN_TEXT);
  return `<pre>${escapeHtml(cut.text)}</pre>${cut.omitted > 0 ? `<p class="note">(${cut.omitted} more characters not shown)</p>` : ''}`;
}

async function changes(item: PendingCriterion): Promise<string> {
  const { record } = item;
  if (record.workspace_diff !== undefined)
    return `<h4>Changes against the starter</h4>${preText(diffText(record.workspace_diff))}`;
  const codebase = item.task?.files['codebase'];
  if (record.workspace === undefined || codebase === undefined) return '';
  // Records stored before diffs were kept: the kept workspace still shows the change.
  try {
    return `<h4>Changes in the workspace</h4>${preText(diffText(await workspaceDiff(codebase, record.workspace)))}`;
  } catch (error) {
    return `<p class="note">The workspace diff is unavailable: ${escapeHtml(error instanceof Error ? error.message : String(error))}</p>`;
  }
}

function form(experimentId: string, item: PendingCriterion, token: string, index: number): string {
  const dimensions = item.dimensions
    .map((d, j) => {
      const choices = ([1, 2, 3, 4] as const)
        .map(
          (level) =>
            `<label><input type="radio" name="level.${escapeHtml(d.name)}" value="${level}" data-key="${level}"${j === 0 && level === 1 ? ' autofocus' : ''}> ${level}: ${escapeHtml(d.levels[level])}</label><br>`,
        )
        .join('');
      return `<fieldset><legend>${escapeHtml(d.name)} (weight ${d.weight})</legend>${choices}</fieldset>`;
    })
    .join('');
  return (
    `<form method="post" action="${escapeHtml(links.grading(experimentId))}" data-grade="${index}">` +
    `<input type="hidden" name="token" value="${escapeHtml(token)}">` +
    `<input type="hidden" name="run_id" value="${escapeHtml(item.record.run_id)}">` +
    `<input type="hidden" name="criterion" value="${escapeHtml(item.criterionId)}">` +
    dimensions +
    '<label>grader <input name="grader" required autocomplete="name"></label> <button type="submit">Save grade</button></form>'
  );
}

/** Trials between two waiting ones that are read rather than asked for apart (one query each). */
const READ_THROUGH = 50;

/**
 * The whole records of the first trials that wait for a grade, enough for `CRITERIA_SHOWN`
 * criteria: the summaries say which (and how many criteria each), so an experiment of 10,000
 * trials reads its summaries and a few records, not every record. Nearby ones are read in one
 * window of the order; a trial a run moved meanwhile is read by its task instead.
 */
async function recordsToGrade(
  store: ExperimentStore,
  experimentId: string,
  summaries: readonly RecordSummary[],
): Promise<RunRecord[]> {
  const places: number[] = [];
  let criteria = 0;
  for (const [place, summary] of summaries.entries()) {
    if (criteria >= CRITERIA_SHOWN) break;
    if (summary.pending_criteria === 0) continue;
    places.push(place);
    criteria += summary.pending_criteria;
  }
  const records: RunRecord[] = [];
  for (let i = 0; i < places.length; ) {
    let j = i;
    while (j + 1 < places.length && (places[j + 1] ?? 0) - (places[j] ?? 0) <= READ_THROUGH) j++;
    const offset = places[i] ?? 0;
    const window = await store.listRecords(experimentId, { offset, limit: (places[j] ?? 0) - offset + 1 });
    for (const place of places.slice(i, j + 1)) {
      const summary = summaries[place];
      if (summary === undefined) continue;
      const record =
        window[place - offset]?.run_id === summary.run_id
          ? window[place - offset]
          : (await store.listRecords(experimentId, { task: summary.task_id })).find(
              (r) => r.run_id === summary.run_id,
            );
      if (record !== undefined) records.push(record);
    }
    i = j + 1;
  }
  return records;
}

/** The pending rubric criteria of one experiment, each with its levels, the output and a form. */
export async function gradingScreen(
  context: ScreenContext,
  id: string,
  query: URLSearchParams,
): Promise<string> {
  const experiment = await experimentDocumentById(context.store, id);
  const suite = await loadExperimentSuite(experiment);
  const summaries = await context.store.listRecordSummaries(experiment.id);
  const waiting = summaries.reduce((n, s) => n + s.pending_criteria, 0);
  const records = await recordsToGrade(context.store, experiment.id, summaries);
  const pending = pendingCriteria({ records }, suite);
  const saved = query.get('saved');
  const intro =
    (saved === null ? '' : `<p class="pass" role="status">Saved the grade of ${escapeHtml(saved)}.</p>`) +
    `<p>${waiting} criteria wait for a grade${waiting > CRITERIA_SHOWN ? ` (the first ${CRITERIA_SHOWN} are below; each saved grade brings the next)` : ''}. Keys 1–4 pick a level of the focused dimension. ` +
    `<a href="${escapeHtml(links.experiment(experiment.id))}">Back to the experiment</a>. ` +
    `Every grade so far: <a href="${escapeHtml(links.grades(experiment.id, 'csv'))}" download>CSV</a> · ` +
    `<a href="${escapeHtml(links.grades(experiment.id, 'jsonl'))}" download>JSONL</a></p>` +
    (context.writeToken === undefined
      ? '<p class="fail">This browser cannot save grades: open the URL that <code>harnesseval view</code> printed (it carries the write token).</p>'
      : '');
  const items: string[] = [];
  for (const [index, item] of pending.slice(0, CRITERIA_SHOWN).entries()) {
    const input =
      item.task === undefined
        ? undefined
        : typeof item.task.input === 'string'
          ? item.task.input
          : JSON.stringify(item.task.input, null, 2);
    items.push(
      `<article class="grade-item" data-run="${escapeHtml(item.record.run_id)}" data-criterion="${escapeHtml(item.criterionId)}">` +
        `<h3>${escapeHtml(item.record.task_id)} (epoch ${item.record.epoch}) — ${escapeHtml(item.description)}</h3>` +
        (input === undefined ? '' : `<h4>Task</h4>${preText(input)}`) +
        (await changes(item)) +
        `<h4>Output</h4>${preText(outputText(item.record.output))}` +
        (item.dimensions.length === 0
          ? '<p class="note">No rubric applies to this task, so it cannot be graded here.</p>'
          : context.writeToken === undefined
            ? ''
            : form(experiment.id, item, context.writeToken, index)) +
        '</article>',
    );
  }
  return renderPage({
    title: `Grade: ${experiment.name ?? experiment.suite.id} — ${experiment.harness.name} ${experiment.harness.version}`,
    subtitle: `HarnessEval experiment ${experiment.id}`,
    sections: [
      {
        id: 'grading',
        title: 'Pending criteria',
        html: intro + (items.length === 0 ? '<p class="none">Nothing to grade.</p>' : items.join('')),
      },
    ],
    data: { kind: 'grading' },
    served: SERVED,
  });
}
