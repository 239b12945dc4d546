import { escapeHtml, renderPage } from '../../reporters/html/index.ts';
import { type LiveSnapshot, liveSnapshot } from '../live.ts';
import { links } from '../routes.ts';
import { type ScreenContext, SERVED } from './context.ts';
import { experimentDocumentById } from './load.ts';

/** A text the script replaces on each update (server-rendered first, so the page reads without it). */
function live(snapshot: LiveSnapshot, name: string): string {
  return `<span data-live="${escapeHtml(name)}">${escapeHtml(snapshot.fields[name] ?? '')}</span>`;
}

function latestList(snapshot: LiveSnapshot): string {
  if (snapshot.latest.length === 0)
    return '<ol data-live-latest><li class="none">no trial has finished yet</li></ol>';
  return `<ol data-live-latest>${snapshot.latest
    .map((t) => `<li data-outcome="${escapeHtml(t.outcome)}">${escapeHtml(t.text)}</li>`)
    .join('')}</ol>`;
}

/**
 * A running experiment as it goes: progress by outcome, what is still to finish, and the running
 * success rate with its Wilson interval. The script follows `/experiments/ID/events`; without it
 * a reload shows the same.
 */
export async function liveScreen(context: ScreenContext, id: string): Promise<string> {
  const document = await experimentDocumentById(context.store, id);
  const experiment = { ...document, records: await context.store.listRecordSummaries(document.id) };
  const snapshot = liveSnapshot(experiment);
  const max = snapshot.total ?? Math.max(snapshot.done, 1);
  const progress =
    `<p><progress data-live-progress value="${snapshot.done}" max="${max}"></progress></p>` +
    `<p data-progress>${live(snapshot, 'done')} of ${live(snapshot, 'total')} trials finished: ` +
    `${live(snapshot, 'pass')} passed, ${live(snapshot, 'fail')} failed, ${live(snapshot, 'error')} errored, ` +
    `${live(snapshot, 'pending')} pending a grade. Status: ${live(snapshot, 'status')}.</p>` +
    `<p data-live-state>${snapshot.finished ? 'The run has ended; these are its final counts.' : 'Updating as trials finish.'}</p>`;
  const metrics =
    `<p>Success rate so far: <b>${live(snapshot, 'rate')}</b>, 95% Wilson interval ${live(snapshot, 'interval')}, ` +
    `n = ${live(snapshot, 'n')} trials that passed or failed (${live(snapshot, 'notes')}).</p>` +
    '<p class="note">Over trials as they finish, not clustered by task: the experiment page shows the final metrics, with their intervals, once the run ends.</p>';
  const { harness } = experiment;
  return renderPage({
    title: `Live: ${experiment.name ?? experiment.suite.name ?? experiment.suite.id} — ${harness.name} ${harness.version}`,
    subtitle: `HarnessEval experiment ${experiment.id}`,
    sections: [
      { id: 'live-progress', title: 'Progress', html: progress },
      { id: 'live-metrics', title: 'Running metrics', html: metrics },
      { id: 'live-in-flight', title: 'Trials in flight', html: `<p>${live(snapshot, 'in_flight')}</p>` },
      {
        id: 'live-latest',
        title: 'Latest finished',
        html: `${latestList(snapshot)}<p><a href="${escapeHtml(links.experiment(experiment.id))}">The experiment page</a> (traces, metric cards)</p>`,
      },
    ],
    data: { kind: 'live', events: links.events(experiment.id), finished: snapshot.finished },
    served: SERVED,
  });
}
