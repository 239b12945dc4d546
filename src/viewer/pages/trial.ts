import { HarnessEvalError } from '../../core/errors.ts';
import type { RunRecord } from '../../core/run-record.ts';
import { escapeHtml, renderPage } from '../../reporters/html/index.ts';
import { type TrialData, trialData } from '../../reporters/html/trial-data.ts';
import type { ExperimentDocument } from '../../store/documents.ts';
import { links } from '../routes.ts';
import { type ScreenContext, SERVED } from './context.ts';
import { experimentDocumentById } from './load.ts';

export interface TrialRequest {
  readonly id: string;
  readonly task: string;
  readonly epoch: number;
}

/**
 * One trial of an experiment and what the trace view shows of it, read through the paged reads:
 * the document, the task's records (its epochs, not the experiment's 10,000 trials) and the
 * trial's annotations. `not_found` when the experiment has no such trial.
 */
export async function loadTrial(
  context: ScreenContext,
  request: TrialRequest,
): Promise<{ document: ExperimentDocument; record: RunRecord; data: TrialData }> {
  const document = await experimentDocumentById(context.store, request.id);
  const records = await context.store.listRecords(document.id, { task: request.task });
  const record = records.find((r) => r.epoch === request.epoch);
  if (record === undefined)
    throw new HarnessEvalError(
      'not_found',
      `experiment ${document.id} has no trial of ${request.task} at epoch ${request.epoch}`,
    );
  const annotations = (await context.store.listAnnotations(document.id)).filter(
    (a) => a.run_id === record.run_id,
  );
  return { document, record, data: trialData(record, annotations) };
}

/** `/experiments/ID/trials/TASK/EPOCH`: one trial's trace on its own page (a link to share). */
export async function trialScreen(context: ScreenContext, request: TrialRequest): Promise<string> {
  const { document, record, data } = await loadTrial(context, request);
  const back = links.experiment(document.id, { task: record.task_id });
  return renderPage({
    title: `${record.task_id} (epoch ${record.epoch}) — ${document.harness.name} ${document.harness.version}`,
    subtitle: `A trial of HarnessEval experiment ${document.id}`,
    sections: [
      {
        id: 'trace',
        title: 'Trace',
        html:
          `<p><a href="${escapeHtml(back)}">The experiment's trials of ${escapeHtml(record.task_id)}</a></p>` +
          '<div class="trace" data-trace-of="0"></div>' +
          '<noscript><p class="note">Turn on JavaScript to see the trace.</p></noscript>',
      },
    ],
    data: { kind: 'trial', experiment_id: document.id, trials: [data] },
    served: SERVED,
  });
}
