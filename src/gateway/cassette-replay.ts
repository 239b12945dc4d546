import { type Cassette, type CassetteRecorder, requestKey, requestSummary } from './cassette.ts';
import { type Exchange, errorOutcome, newTap, type Outcome } from './exchange.ts';
import { hidesUsage } from './usage-chunk.ts';

/** Answers from a cassette: the recorded response for the request's normalised hash, or `cassette_miss`. */
export function answerFromCassette(ex: Exchange, cassette: Cassette): Outcome {
  const key = requestKey(ex.api.api, ex.body, ex.route.vars);
  const use = ex.route.cassetteUses.get(key) ?? 0;
  const entry = cassette.find(key, use);
  if (entry === undefined) {
    const message =
      `cassette ${cassette.file} has no answer for request ${ex.seq} of this trial ` +
      `(${ex.api.api}, model ${ex.view.model || '?'}, key ${key.slice(0, 12)}): ` +
      `last user text ${JSON.stringify(requestSummary(ex.view))}`;
    return errorOutcome(ex, 400, 'cassette_miss', message, 'cassette');
  }
  ex.route.cassetteUses.set(key, use + 1);
  const tap = newTap(ex, hidesUsage(ex));
  tap.head(entry.status, { 'content-type': entry.content_type }, true);
  tap.write(entry.body);
  const observation = tap.end();
  const ttft = tap.ttftSeconds();
  return {
    status: entry.status,
    observation,
    upstream: 'cassette',
    ...(ex.keepText ? { text: tap.text() } : {}),
    ...(ttft === undefined ? {} : { ttftSeconds: ttft }),
  };
}

/** Appends a forwarded exchange to the cassette being recorded. */
export function recordToCassette(
  ex: Exchange,
  recorder: CassetteRecorder,
  outcome: Outcome,
  contentType: string,
): void {
  if (outcome.text === undefined || outcome.status === 0) return;
  recorder.append({
    key: requestKey(ex.api.api, ex.body, ex.route.vars),
    api: ex.api.api,
    model: ex.view.model,
    summary: requestSummary(ex.view),
    status: outcome.status,
    content_type: contentType,
    body: outcome.text,
  });
}
