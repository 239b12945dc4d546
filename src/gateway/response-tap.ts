import type { ServerResponse } from 'node:http';
import type { ApiModule, CallObservation, StreamObserver } from './protocol.ts';
import { isRecord } from './protocol.ts';
import { frameData, type SseFrame, SseFramer } from './sse.ts';
import { isUsageOnlyChunk } from './usage-chunk.ts';

/** The most response bytes kept for a cassette or a recorded body (a runaway stream is cut). */
const MAX_KEPT_BYTES = 8 * 1024 * 1024;

export interface TapOptions {
  readonly keepText: boolean;
  /** Keep Chat Completions usage-only chunks from the harness (it did not ask for them); they are still read. */
  readonly hideUsage: boolean;
}

/**
 * Sends a response to the harness while reading it. Bytes go to the harness first, unchanged; then
 * SSE events are framed as bytes and read by the API's stream observer, which skims the events that
 * change no figure (text deltas) without decoding them (the first output event marks the time to
 * first token). A JSON body is read once, when it ends; kept bytes are decoded once, at the end.
 */
export class ResponseTap {
  private framer: SseFramer | undefined;
  private observer: StreamObserver | undefined;
  private json: Buffer[] = [];
  private kept: Buffer[] = [];
  private keptBytes = 0;
  private firstOutput: number | undefined;
  /** The stream ended inside an event. */
  private cut = false;
  /** The data of the event just read, when it was parsed (not skimmed). */
  private parsed: Record<string, unknown> | undefined;
  /** With `hideUsage`: copies of the events of the current chunk the harness gets. */
  private visible: Buffer[] = [];
  status = 0;
  sse = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly api: ApiModule,
    private readonly started: number,
    private readonly options: TapOptions,
  ) {}

  /**
   * Sends the status and headers. They go out at once (a streaming client starts reading before
   * the first event) unless `bodyFollows`: body bytes are already at hand, and the headers leave
   * with them in one write.
   */
  head(status: number, headers: Record<string, string | string[]>, bodyFollows = false): void {
    this.status = status;
    const type = headers['content-type'];
    this.sse = typeof type === 'string' && type.includes('text/event-stream');
    if (this.sse) {
      this.framer = new SseFramer();
      this.observer = this.api.streamObserver();
    }
    this.res.writeHead(status, headers);
    if (!bodyFollows) this.res.flushHeaders();
  }

  /** Writes a chunk; false when the harness's socket wants a pause (backpressure). */
  write(chunk: Buffer | string): boolean {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (this.options.keepText && this.keptBytes < MAX_KEPT_BYTES) {
      this.kept.push(buffer);
      this.keptBytes += buffer.length;
    }
    if (this.framer === undefined) {
      this.json.push(buffer);
      this.firstOutput ??= performance.now();
      return this.res.write(buffer);
    }
    if (this.options.hideUsage) {
      this.framer.push(buffer, this.onFrame);
      return this.writeVisible();
    }
    // The harness gets the bytes before the gateway reads them.
    const ok = this.res.write(buffer);
    this.framer.push(buffer, this.onFrame);
    return ok;
  }

  /** Ends the response (unless the harness is gone) and returns what it carried. */
  end(): CallObservation {
    if (this.options.hideUsage && this.framer !== undefined) {
      this.framer.end(this.onFrame);
      this.writeVisible();
    }
    if (!this.res.writableEnded && !this.res.destroyed) this.res.end();
    return this.observation();
  }

  private observation(): CallObservation {
    if (this.framer !== undefined && this.observer !== undefined) {
      if (!this.options.hideUsage) this.framer.end(this.onFrame);
      const seen = this.observer.observation();
      if (this.cut && seen.error === undefined)
        seen.error = 'stream_truncated: the response stream ended inside an event';
      return seen;
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(this.json).toString('utf8'));
    } catch {
      body = undefined;
    }
    return this.api.observeJson(body);
  }

  private readonly onFrame = (frame: SseFrame): void => {
    if (this.read(frame) && this.firstOutput === undefined) this.firstOutput = performance.now();
    if (this.options.hideUsage && (this.parsed === undefined || !isUsageOnlyChunk(this.parsed)))
      this.visible.push(Buffer.from(frame.buf.subarray(frame.start, frame.next)));
  };

  /** Reads one event; true when it carries model output. */
  private read(frame: SseFrame): boolean {
    this.parsed = undefined;
    const observer = this.observer as StreamObserver;
    // An event the stream ended inside of may be cut short: it is always parsed.
    const skimmed = frame.unterminated ? undefined : observer.skim?.(frame);
    if (skimmed !== undefined) return skimmed;
    const data = frameData(frame);
    if (data === '[DONE]') return false;
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      if (frame.unterminated) this.cut = true;
      return false;
    }
    if (!isRecord(value)) return false;
    this.parsed = value;
    return observer.onData(value, frame);
  }

  private writeVisible(): boolean {
    if (this.visible.length === 0) return true;
    const bytes = this.visible.length === 1 ? (this.visible[0] as Buffer) : Buffer.concat(this.visible);
    this.visible = [];
    return this.res.destroyed || this.res.writableEnded ? true : this.res.write(bytes);
  }

  /** Seconds from the request to the first output event, when there was one. */
  ttftSeconds(): number | undefined {
    return this.firstOutput === undefined ? undefined : Math.max(0, (this.firstOutput - this.started) / 1000);
  }

  /** The response as the upstream sent it (decoded once: a character split across chunks stays whole). */
  text(): string {
    return Buffer.concat(this.kept).toString('utf8');
  }
}
