import { experimentLabels } from '../../compare/labels.ts';
import type { RunRecord } from '../../core/run-record.ts';
import { escapeHtml, renderPage } from '../../reporters/html/index.ts';
import { trialData } from '../../reporters/html/trial-data.ts';
import type { ExperimentDocument } from '../../store/documents.ts';
import { links } from '../routes.ts';
import { type ScreenContext, SERVED } from './context.ts';
import { experimentDocumentById } from './load.ts';

export interface TaskTracesRequest {
  readonly baseline: string;
  readonly candidate: string;
  readonly task: string;
}

/** One column: the experiment's trials of the task, each trace laid out by the page script. */
function column(
  experiment: ExperimentDocument,
  records: readonly RunRecord[],
  names: { readonly label: string; readonly role: string; readonly task: string },
  first: number,
): string {
  const { label, role, task } = names;
  const traces =
    records.length === 0
      ? `<p class="none">${escapeHtml(`${label} has no trial of ${task}.`)}</p>`
      : records.map((_, i) => `<div class="trace" data-trace-of="${first + i}"></div>`).join('');
  return (
    `<div class="trace-column" data-experiment="${escapeHtml(experiment.id)}">` +
    `<h3>${escapeHtml(`${label} (${role})`)} · <a href="${escapeHtml(links.experiment(experiment.id, { task }))}">${escapeHtml(`${experiment.harness.name} ${experiment.harness.version}`)}</a></h3>` +
    `${traces}</div>`
  );
}

/** A task's traces in the baseline and in a candidate, side by side (`/compare/task?a=…&b=…&task=…`). */
export async function taskTracesScreen(context: ScreenContext, request: TaskTracesRequest): Promise<string> {
  const baseline = await experimentDocumentById(context.store, request.baseline);
  const candidate = await experimentDocumentById(context.store, request.candidate);
  const [a = baseline.id, b = candidate.id] = experimentLabels([baseline, candidate]);
  const { task } = request;
  // Only this task's records of each: the paged read, not two whole experiments.
  const trialsOf = async (e: ExperimentDocument) =>
    (await context.store.listRecords(e.id, { task })).sort((x, y) => x.epoch - y.epoch);
  const left = await trialsOf(baseline);
  const right = await trialsOf(candidate);
  return renderPage({
    title: `Task ${task}: ${b} vs ${a}`,
    subtitle: `The traces of one task in two experiments, side by side`,
    sections: [
      {
        id: 'side-by-side',
        title: 'Traces',
        html:
          `<p><a href="${escapeHtml(links.compare([baseline.id, candidate.id]))}">Back to the comparison of ${escapeHtml(b)} with ${escapeHtml(a)}</a></p>` +
          `<div class="traces-side">${column(baseline, left, { label: a, role: 'baseline', task }, 0)}${column(candidate, right, { label: b, role: 'candidate', task }, left.length)}</div>`,
      },
    ],
    data: { kind: 'task_traces', trials: [...left, ...right].map((r) => trialData(r)) },
    served: SERVED,
  });
}
