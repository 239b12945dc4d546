import type { IncomingMessage } from 'node:http';
import { errorMessage } from '../core/errors.ts';
import type { CassetteRecorder } from './cassette.ts';
import { recordToCassette } from './cassette-replay.ts';
import { type Exchange, errorOutcome, newTap, type Outcome } from './exchange.ts';
import {
  clientHeaders,
  type ForwardTarget,
  sendUpstream,
  upstreamHeaders,
  upstreamLocation,
} from './forward.ts';
import type { ResponseTap } from './response-tap.ts';
import { hidesUsage } from './usage-chunk.ts';
import { isRecord } from './wire-json.ts';

/**
 * A streamed Chat Completions request reports usage only when it asks
 * (`stream_options.include_usage`); the gateway asks on the harness's behalf and keeps the extra
 * usage chunk from it, so the harness sees the stream it asked for.
 */
function withUsageRequested(ex: Exchange): { body: Buffer; stripUsage: boolean } {
  if (!hidesUsage(ex)) return { body: ex.raw, stripUsage: false };
  const options = isRecord(ex.body['stream_options']) ? ex.body['stream_options'] : {};
  const body = { ...ex.body, stream_options: { ...options, include_usage: true } };
  return { body: Buffer.from(JSON.stringify(body)), stripUsage: true };
}

/**
 * Streams the upstream's answer through the tap as chunks arrive, pausing while the harness's
 * socket is full. The chunks that arrive together (one socket read holds many SSE events) leave
 * together, in one write on the next tick, with the end of the response when the answer is
 * complete: one chunk and one syscall, not one per event. Resolves at the end of the answer or
 * when the harness hangs up; rejects when the upstream's stream breaks or closes before the
 * answer is complete.
 */
function pipe(upstream: IncomingMessage, ex: Exchange, tap: ResponseTap): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ex.signal.aborted) {
      resolve();
      return;
    }
    const resume = () => upstream.resume();
    const pending: Buffer[] = [];
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      if (pending.length === 0) return;
      const bytes = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
      pending.length = 0;
      if (ex.signal.aborted) return;
      const last = upstream.complete && upstream.readableLength === 0;
      if (!tap.write(bytes, last) && !last && !ex.res.destroyed) {
        upstream.pause();
        ex.res.once('drain', resume);
      }
    };
    const hungUp = () => resolve();
    ex.signal.addEventListener('abort', hungUp);
    const done = (error?: Error) => {
      flush();
      ex.signal.removeEventListener('abort', hungUp);
      if (error === undefined) resolve();
      else reject(error);
    };
    upstream.on('data', (chunk: Buffer) => {
      if (ex.signal.aborted) return;
      pending.push(chunk);
      if (!scheduled) {
        scheduled = true;
        process.nextTick(flush);
      }
    });
    upstream.once('end', () => done());
    upstream.once('error', done);
    upstream.once('close', () => {
      if (!upstream.complete) done(new Error('the upstream closed the connection before the answer ended'));
    });
  });
}

/**
 * Resolves after the event loop's next poll for I/O: an immediate queued by an immediate runs in
 * the next loop iteration, after that iteration's poll.
 */
function afterNextPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** Forwards a call to a provider or base URL, streaming the answer through as it arrives. */
export async function forwardUpstream(
  ex: Exchange,
  target: ForwardTarget,
  recorder: CassetteRecorder | undefined,
): Promise<Outcome> {
  const { body, stripUsage } = withUsageRequested(ex);
  let upstream: IncomingMessage;
  try {
    upstream = await sendUpstream({
      to: upstreamLocation(target, ex.path),
      method: ex.req.method ?? 'POST',
      headers: upstreamHeaders(ex.req.headers, ex.api.api, target, ex.route.key),
      body,
      signal: ex.signal,
    });
  } catch (error) {
    if (ex.signal.aborted) return errorOutcome(ex, 0, 'client_closed', 'the harness hung up', target.label);
    return errorOutcome(
      ex,
      502,
      'upstream_unreachable',
      `${target.label}: ${errorMessage(error)}`,
      target.label,
    );
  }
  const tap = newTap(ex, stripUsage);
  const status = upstream.statusCode ?? 502;
  // The first bytes usually come in the same packet as the headers: then they leave together.
  tap.head(status, clientHeaders(upstream.headers, stripUsage), !stripUsage && upstream.readableLength > 0);
  let failure: string | undefined;
  try {
    await pipe(upstream, ex, tap);
  } catch (error) {
    if (!ex.signal.aborted) failure = `the upstream stream broke: ${errorMessage(error)}`;
  }
  if (ex.signal.aborted) {
    upstream.destroy();
    failure = 'the harness hung up before the answer ended';
  }
  const sentAt = performance.now();
  // The harness has its answer: reading the last bytes and recording the call can wait until the
  // event loop has looked for I/O once more, so bytes of other calls go first.
  if (ex.res.writableEnded) await afterNextPoll();
  const observation = tap.end();
  const ttft = tap.ttftSeconds();
  const outcome: Outcome = {
    status,
    observation,
    upstream: target.label,
    sentAt,
    ...(ex.keepText || recorder !== undefined ? { text: tap.text() } : {}),
    ...(ttft === undefined ? {} : { ttftSeconds: ttft }),
    ...(failure === undefined ? {} : { error: failure }),
  };
  if (recorder !== undefined && failure === undefined)
    recordToCassette(ex, recorder, outcome, String(upstream.headers['content-type'] ?? 'application/json'));
  return outcome;
}
