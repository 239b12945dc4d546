import type { ServerResponse } from 'node:http';
import type { Experiment } from '../core/experiment.ts';
import { isEnvironmentError, isInfraError } from '../core/overall-score.ts';
import { formatMetricValue } from '../metrics/format.ts';
import { wilsonInterval } from '../stats/proportion.ts';
import type { ExperimentDocument } from '../store/documents.ts';
import type { ExperimentStore, RecordSummary } from '../store/types.ts';
import { LiveRecords } from './live-records.ts';

/** Trials listed as "latest finished" on the live screen. */
export const LATEST_SHOWN = 10;

/**
 * What the live screen shows of an experiment, as text ready to display: the server renders the
 * first page from it and streams the later ones, so a number reads the same before and after an
 * update. `fields` fill the page's `[data-live=NAME]` elements.
 */
export interface LiveSnapshot {
  readonly status: Experiment['status'];
  /** Planned trials (tasks × epochs), or null when the experiment does not list its tasks. */
  readonly total: number | null;
  readonly done: number;
  readonly finished: boolean;
  readonly fields: Readonly<Record<string, string>>;
  readonly latest: readonly LatestTrial[];
}

export interface LatestTrial {
  readonly run_id: string;
  readonly task_id: string;
  readonly epoch: number;
  readonly outcome: string;
  readonly text: string;
}

const percent = (value: number | null): string => formatMetricValue(value, 'ratio');

/** An experiment as the live screen reads it: its document and one summary per stored trial. */
export type LiveExperiment = ExperimentDocument & { readonly records: readonly RecordSummary[] };

/** Latest finish first; a trial whose finish is unknown last. */
function byFinishDescending(a: RecordSummary, b: RecordSummary): number {
  const x = a.finished_at ?? '';
  const y = b.finished_at ?? '';
  return x < y ? 1 : x > y ? -1 : 0;
}

/** The snapshot of an experiment as stored now. */
export function liveSnapshot(experiment: LiveExperiment): LiveSnapshot {
  const records = experiment.records;
  const counts = { pass: 0, fail: 0, error: 0, pending: 0 };
  let environment = 0;
  let infra = 0;
  for (const r of records) {
    counts[r.outcome] += 1;
    if (isEnvironmentError(r)) environment += 1;
    if (isInfraError(r)) infra += 1;
  }
  const kinds = [environment > 0 ? `${environment} environment` : '', infra > 0 ? `${infra} infra` : '']
    .filter((k) => k !== '')
    .join(', ');
  const planned = experiment.suite.tasks.length * experiment.settings.epochs;
  const total = planned > 0 ? Math.max(planned, records.length) : null;
  const finished = experiment.status !== 'running';
  // Errors are left out (as success_rate_completed): an errored trial says nothing of pass or fail.
  const n = counts.pass + counts.fail;
  const rate = n === 0 ? null : counts.pass / n;
  const interval = wilsonInterval(counts.pass, n);
  const left = total === null ? null : total - records.length;
  const notes = [
    counts.error > 0 ? `${counts.error} errored left out${kinds === '' ? '' : ` (${kinds})`}` : '',
    counts.pending > 0 ? `${counts.pending} pending a grade left out` : '',
  ].filter((note) => note !== '');
  const fields: Record<string, string> = {
    status: experiment.status,
    done: String(records.length),
    total: total === null ? 'unknown' : String(total),
    pass: String(counts.pass),
    fail: String(counts.fail),
    error: String(counts.error),
    pending: String(counts.pending),
    rate: percent(rate),
    interval: interval === null ? '-' : `[${percent(interval[0])}, ${percent(interval[1])}]`,
    n: String(n),
    notes: notes.length === 0 ? 'nothing left out' : notes.join('; '),
    in_flight: finished
      ? 'none: the run has ended'
      : left === null
        ? 'unknown: the experiment does not list its tasks'
        : `${left} not finished yet; at most ${Math.min(left, experiment.settings.concurrency)} of them running now (concurrency ${experiment.settings.concurrency}). The store records a trial when it finishes, not when it starts, so which ones run is not known here.`,
  };
  const latest = [...records]
    .sort(byFinishDescending)
    .slice(0, LATEST_SHOWN)
    .map((r) => ({
      run_id: r.run_id,
      task_id: r.task_id,
      epoch: r.epoch,
      outcome: r.outcome,
      text: `${r.task_id}${experiment.settings.epochs > 1 || r.epoch > 0 ? ` #${r.epoch}` : ''}: ${r.outcome} in ${r.duration_seconds.toFixed(1)} s`,
    }));
  return { status: experiment.status, total, done: records.length, finished, fields, latest };
}

export interface LiveStreamOptions {
  readonly store: ExperimentStore;
  readonly experimentId: string;
  /** How often the store is read (it is polled: another process writes, and nothing notifies). */
  readonly pollMs: number;
}

const KEEP_ALIVE_MS = 15_000;

/**
 * Streams an experiment's snapshots as server-sent events: one `progress` event at once, another
 * each time the stored experiment changes, and `end` when the run is over (the client then
 * closes, instead of reconnecting). Polling the store works for SQLite and PostgreSQL alike while
 * another process writes; each poll reads the document and only the summaries of trials that
 * finished since the last one (see LiveRecords), so a long run costs the same each second.
 * Resolves when the stream ends or the browser goes away.
 */
export async function streamLive(response: ServerResponse, options: LiveStreamOptions): Promise<void> {
  response.statusCode = 200;
  response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  response.setHeader('Connection', 'keep-alive');
  response.flushHeaders();
  let open = true;
  response.on('close', () => {
    open = false;
  });
  let last = '';
  let lastWrite = Date.now();
  const records = new LiveRecords(options.store, options.experimentId);
  response.write('retry: 2000\n\n');
  while (open) {
    const document = await options.store.getExperimentDocument(options.experimentId);
    if (document === undefined) {
      response.write(`event: gone\ndata: ${JSON.stringify({ experiment_id: options.experimentId })}\n\n`);
      break;
    }
    // Once the run is over, one whole read: the final counts are exact whatever changed late.
    const finished = document.status !== 'running';
    const snapshot = liveSnapshot({ ...document, records: await records.read({ whole: finished }) });
    const text = JSON.stringify(snapshot);
    if (text !== last) {
      // JSON.stringify escapes line breaks, so one `data:` line holds the whole event.
      response.write(`event: progress\ndata: ${text}\n\n`);
      last = text;
      lastWrite = Date.now();
    } else if (Date.now() - lastWrite > KEEP_ALIVE_MS) {
      response.write(': still running\n\n');
      lastWrite = Date.now();
    }
    if (snapshot.finished) {
      response.write('event: end\ndata: {}\n\n');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
  response.end();
}
